# gpusoc_tex_unit: the texture unit, a SystemC module between a TPC's SMs and the memory system.
# It reuses the SM's sectored cache and memory request port, so it comes after models/sm.
gpusoc_add_library(gpusoc_tex_unit
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/texture_unit.cpp ${CMAKE_CURRENT_LIST_DIR}/texture_unit_params.cpp
  DEPS gpusoc_sm gpusoc_tlm fmt::fmt)
