# Per-lane semantics of the ALU, conversion, transcendental and warp-level instructions.
set(GPUSOC_PTX_SEMANTICS_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/semantics/select.cpp
  ${CMAKE_CURRENT_LIST_DIR}/semantics/integer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/semantics/float.cpp
  ${CMAKE_CURRENT_LIST_DIR}/semantics/half.cpp
  ${CMAKE_CURRENT_LIST_DIR}/semantics/sfu.cpp
  ${CMAKE_CURRENT_LIST_DIR}/semantics/compare.cpp
  ${CMAKE_CURRENT_LIST_DIR}/semantics/bits.cpp
  ${CMAKE_CURRENT_LIST_DIR}/semantics/convert.cpp
  ${CMAKE_CURRENT_LIST_DIR}/semantics/warp_level.cpp)
gpusoc_add_library(gpusoc_ptx_semantics
  SOURCES ${GPUSOC_PTX_SEMANTICS_SOURCES}
  DEPS gpusoc_ptx_front)
# Directed rounding runs the host's arithmetic under fesetround (semantics/fp.h): GCC must not
# constant-fold or reorder floating-point code as if the mode were always round-to-nearest.
set_source_files_properties(
  ${CMAKE_CURRENT_LIST_DIR}/semantics/float.cpp
  ${CMAKE_CURRENT_LIST_DIR}/semantics/sfu.cpp
  PROPERTIES COMPILE_OPTIONS -frounding-math)
