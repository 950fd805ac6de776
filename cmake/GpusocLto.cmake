# Link-time optimization of the memory system in the programs whose speed we quote: gpusoc and
# the benchmark programs. The memory hierarchy's event loop calls into the crossbar, the L2 slices,
# the partitions and their controllers millions of times per second, and only the linker sees
# across those libraries (6.6% fewer instructions and 4 to 11% more requests per second through
# the hierarchy, docs/memory.md). Those four
# libraries carry GCC's intermediate code beside their machine code ("fat" objects): the programs
# marked below optimize it whole at link time, while the tests, and projects that link the
# libraries without -flto, link the machine code as usual at no extra link time. Only the memory
# system, so that the programs' link stays short. GCC only; Release only. -DGPUSOC_LTO=OFF gives
# quicker rebuilds while tuning a model, and libraries for projects that link with -flto under
# another GCC version.
option(GPUSOC_LTO "Link gpusoc and the benchmark programs with link-time optimization" ON)

set(GPUSOC_LTO_ACTIVE OFF)
if(GPUSOC_LTO AND NOT CMAKE_BUILD_TYPE STREQUAL "Release")
  message(STATUS "gpusoc: link-time optimization only in Release builds (this is "
                 "'${CMAKE_BUILD_TYPE}')")
elseif(GPUSOC_LTO)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    include(CheckIPOSupported)
    check_ipo_supported(RESULT gpusoc_ipo_ok OUTPUT gpusoc_ipo_why LANGUAGES CXX)
    if(gpusoc_ipo_ok)
      set(GPUSOC_LTO_ACTIVE ON)
    else()
      message(STATUS "gpusoc: no link-time optimization: ${gpusoc_ipo_why}")
    endif()
  else()
    message(STATUS "gpusoc: link-time optimization is set up for GCC only")
  endif()
endif()

# gpusoc_lto_objects(TARGET): its objects carry intermediate code too.
function(gpusoc_lto_objects target)
  if(GPUSOC_LTO_ACTIVE)
    target_compile_options(${target} PRIVATE -flto=auto -ffat-lto-objects)
  endif()
endfunction()

# gpusoc_lto_program(TARGET): an executable whose fat objects are optimized together when linked.
function(gpusoc_lto_program target)
  if(GPUSOC_LTO_ACTIVE)
    target_link_options(${target} PRIVATE -flto=auto)
  endif()
endfunction()
