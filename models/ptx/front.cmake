gpusoc_add_library(gpusoc_ptx_front
  SOURCES
    ${CMAKE_CURRENT_SOURCE_DIR}/types.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/diagnostics.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/lexer.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/parser.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/parser_func.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/parser_decl.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/parser_instr.cpp
  DEPS fmt::fmt)
