# gpusoc_soc: the SoC as a library (GpuSoc, HostSystem joined in SocPlatform) and the GPU
# specification. An OBJECT library, like gpusoc_platform below: its objects go into every
# binary that links it, so the parameters declared in them are always registered.
add_library(gpusoc_soc OBJECT
  ${CMAKE_CURRENT_SOURCE_DIR}/gpu_spec.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/gpu_soc.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/soc_platform.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/timeline_sampler.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/launch_counters.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/register_doc.cpp)
target_include_directories(gpusoc_soc PUBLIC ${PROJECT_SOURCE_DIR})
target_link_libraries(gpusoc_soc
  PUBLIC gpusoc_host gpusoc_pcie gpusoc_gigathread gpusoc_cta_dispatch gpusoc_sm gpusoc_tex_unit gpusoc_memsys
         gpusoc_common
  PRIVATE gpusoc_warnings)

# gpusoc_platform: the parts of the gpusoc program other than its subcommands.
add_library(gpusoc_platform OBJECT
  ${CMAKE_CURRENT_SOURCE_DIR}/command.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/launch_options.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/number_text.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/run_summary.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/command_line.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/cli.cpp)
target_include_directories(gpusoc_platform PUBLIC ${PROJECT_SOURCE_DIR})
target_link_libraries(gpusoc_platform PUBLIC gpusoc_common PRIVATE gpusoc_warnings)
# The version and commit (platform/version.h), written at every build, changed only when they do.
set(GPUSOC_VERSION_SOURCE ${CMAKE_CURRENT_BINARY_DIR}/generated/gpusoc_version.cpp)
add_custom_target(gpusoc_version_source
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DOUTPUT=${GPUSOC_VERSION_SOURCE}
          -DVERSION=${PROJECT_VERSION} -P ${PROJECT_SOURCE_DIR}/cmake/GpusocVersion.cmake
  BYPRODUCTS ${GPUSOC_VERSION_SOURCE}
  COMMENT "gpusoc version and commit")
target_sources(gpusoc_platform PRIVATE ${GPUSOC_VERSION_SOURCE})
add_dependencies(gpusoc_platform gpusoc_version_source)

# The program: build/platform/gpusoc.
add_executable(gpusoc ${CMAKE_CURRENT_SOURCE_DIR}/main.cpp)
target_link_libraries(gpusoc PRIVATE gpusoc_platform gpusoc_soc gpusoc_warnings)
gpusoc_lto_program(gpusoc)

# gpusoc_cli_command(FILE [DEPS libraries...]): one subcommand source (it registers
# itself, see platform/command.h) and the libraries it needs.
function(gpusoc_cli_command file)
  cmake_parse_arguments(ARG "" "" "DEPS" ${ARGN})
  target_sources(gpusoc PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/${file})
  target_link_libraries(gpusoc PRIVATE ${ARG_DEPS})
endfunction()

# Subcommands, one line each.
gpusoc_cli_command(cmd_config.cpp)
gpusoc_cli_command(cmd_info.cpp)
gpusoc_cli_command(cmd_registers.cpp)
gpusoc_cli_command(cmd_ptx.cpp DEPS gpusoc_ptx)
gpusoc_cli_command(cmd_run.cpp DEPS gpusoc_apps)
gpusoc_cli_command(cmd_launch.cpp DEPS gpusoc_apps)
target_sources(gpusoc PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/launch_texture_args.cpp)
gpusoc_cli_command(cmd_memtrace.cpp DEPS gpusoc_memsys)
