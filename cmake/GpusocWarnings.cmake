# Project code builds warning-free; third-party headers are included as system headers.
add_library(gpusoc_warnings INTERFACE)
target_compile_options(gpusoc_warnings INTERFACE -Wall -Wextra -Werror)

# gpusoc_add_library(NAME SOURCES... [DEPS ...])
function(gpusoc_add_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(${name} PUBLIC ${ARG_DEPS} PRIVATE gpusoc_warnings)
endfunction()
