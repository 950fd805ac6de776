gpusoc_add_library(gpusoc_ptx
  SOURCES
    ${CMAKE_CURRENT_SOURCE_DIR}/cfg.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/decode_opcode.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/decode_function.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/decoder.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/register_pressure.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/shared_layout.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/warp.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/warp_memory.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/warp_simt.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/simt_model.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/device_printf.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/cta_runner.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/device.cpp
  DEPS gpusoc_ptx_semantics gpusoc_ptx_front gpusoc_common fmt::fmt)
