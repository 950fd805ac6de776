# gpusoc_common: parameters and configuration, statistics, logging (no SystemC).
option(GPUSOC_ENABLE_TRACE "Keep GPUSOC_DEBUG/GPUSOC_TRACE statements in optimized builds" OFF)

set(GPUSOC_COMMON_SOURCES
  ${CMAKE_CURRENT_SOURCE_DIR}/spelling.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/text_table.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/text_file.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/host_memory.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/wall_deadline.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/progress.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/timeline.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/kernel_names.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/kernel_launch.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/constraint.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/param_spec.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/param_registry.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/param_doc.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/policy_choice.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/config_file.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/config.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/stat.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/counter_vector.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/histogram.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/stat_group.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/stats_report.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/log_levels.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/logging.cpp)
# Written separately; joins the library once it exists.
if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/sparse_memory.cpp)
  list(APPEND GPUSOC_COMMON_SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/sparse_memory.cpp)
endif()

gpusoc_add_library(gpusoc_common
  SOURCES ${GPUSOC_COMMON_SOURCES}
  DEPS spdlog::spdlog fmt::fmt nlohmann_json::nlohmann_json)
if(GPUSOC_ENABLE_TRACE)
  target_compile_definitions(gpusoc_common PUBLIC GPUSOC_ENABLE_TRACE)
endif()
