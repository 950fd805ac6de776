# gpusoc_tlm: the SystemC/TLM-2.0 building blocks every block shares (register blocks, routers,
# memory targets, the payload extension, the base-protocol checker).
set(GPUSOC_TLM_SOURCES "")
foreach(src register_block tlm_router memory_target protocol_checker bandwidth_booking
    packet_payload)
  if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${src}.cpp)
    list(APPEND GPUSOC_TLM_SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/${src}.cpp)
  endif()
endforeach()
if(GPUSOC_TLM_SOURCES)
  gpusoc_add_library(gpusoc_tlm SOURCES ${GPUSOC_TLM_SOURCES} DEPS gpusoc_common PkgConfig::SYSTEMC)
else()
  add_library(gpusoc_tlm INTERFACE)
  target_link_libraries(gpusoc_tlm INTERFACE gpusoc_common PkgConfig::SYSTEMC)
endif()
