# gpusoc as a library for other CMake projects (docs/embedding.md). Included last, once every
# target exists. Public names: gpusoc_soc is gpusoc::platform (GpuSoc, HostSystem, SocPlatform),
# gpusoc_runtime is gpusoc::runtime, and every library they need is gpusoc::<name without
# gpusoc_>. The same names work three ways: ALIAS targets here (add_subdirectory), the build
# tree's package (find_package with gpusoc_DIR=<build dir>), an installed package
# (cmake --install; find_package with CMAKE_PREFIX_PATH=<prefix>).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# The non-imported targets `roots` link, roots included, following the link interfaces.
function(gpusoc_link_closure out)
  set(todo ${ARGN})
  set(seen "")
  while(todo)
    list(POP_FRONT todo target)
    if(target IN_LIST seen)
      continue()
    endif()
    list(APPEND seen ${target})
    get_target_property(libs ${target} INTERFACE_LINK_LIBRARIES)
    foreach(lib IN LISTS libs)
      string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" lib "${lib}")
      if(TARGET "${lib}")
        get_target_property(imported ${lib} IMPORTED)
        if(NOT imported)
          list(APPEND todo ${lib})
        endif()
      endif()
    endforeach()
  endwhile()
  set(${out} ${seen} PARENT_SCOPE)
endfunction()

gpusoc_link_closure(GPUSOC_EXPORTED_TARGETS gpusoc_soc gpusoc_runtime)
foreach(target IN LISTS GPUSOC_EXPORTED_TARGETS)
  if(target STREQUAL "gpusoc_soc")
    set(name platform)
  else()
    string(REGEX REPLACE "^gpusoc_" "" name ${target})
  endif()
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
  add_library(gpusoc::${name} ALIAS ${target})
  # The libraries name the source tree as their include directory; a package must not (an
  # installed one names include/, added by install(TARGETS ... INCLUDES) below).
  get_target_property(dirs ${target} INTERFACE_INCLUDE_DIRECTORIES)
  if(dirs)
    list(TRANSFORM dirs REPLACE "^(/.*)$" "$<BUILD_INTERFACE:\\1>")
    set_target_properties(${target} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${dirs}")
  endif()
endforeach()
# Consumers compile gpusoc's headers: C++17 at least (libsystemc wants exactly 17).
target_compile_features(gpusoc_soc INTERFACE cxx_std_17)
target_compile_features(gpusoc_runtime INTERFACE cxx_std_17)
if(GPUSOC_SANITIZE)
  # Instrumented libraries need the sanitizer runtimes in whatever links them.
  target_link_options(gpusoc_common INTERFACE -fsanitize=address,undefined)
endif()

install(TARGETS ${GPUSOC_EXPORTED_TARGETS} EXPORT gpusocTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  OBJECTS DESTINATION ${CMAKE_INSTALL_LIBDIR}/gpusoc/objects
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# Headers keep their paths: #include "platform/soc_platform.h" works from an install as here.
foreach(dir models platform sw/runtime)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/${dir}
    FILES_MATCHING PATTERN "*.h")
endforeach()
install(DIRECTORY ${GPUSOC_CONFIG_DIR}/ DESTINATION ${CMAKE_INSTALL_DATADIR}/gpusoc/configs)
install(DIRECTORY ${GPUSOC_KERNEL_DIR}/ DESTINATION ${CMAKE_INSTALL_DATADIR}/gpusoc/kernels
  FILES_MATCHING PATTERN "*.ptx")

# The package files: gpusocTargets.cmake (the imported targets, OBJECT libraries with their
# object files), gpusocConfig.cmake (dependencies, data folders), gpusocConfigVersion.cmake.
set(GPUSOC_PACKAGE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/gpusoc)
export(EXPORT gpusocTargets NAMESPACE gpusoc:: FILE ${PROJECT_BINARY_DIR}/gpusocTargets.cmake)
install(EXPORT gpusocTargets NAMESPACE gpusoc:: DESTINATION ${GPUSOC_PACKAGE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/gpusocConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)

# Build tree: data straight from the sources.
set(GPUSOC_PACKAGE_CONFIG_DIR ${GPUSOC_CONFIG_DIR})
set(GPUSOC_PACKAGE_KERNEL_DIR ${GPUSOC_KERNEL_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/gpusocConfig.cmake.in
  ${PROJECT_BINARY_DIR}/gpusocConfig.cmake
  INSTALL_DESTINATION ${PROJECT_BINARY_DIR} INSTALL_PREFIX ${PROJECT_BINARY_DIR}
  PATH_VARS GPUSOC_PACKAGE_CONFIG_DIR GPUSOC_PACKAGE_KERNEL_DIR)
# Install: data under share/gpusoc, found relative to the installed config file.
set(GPUSOC_PACKAGE_CONFIG_DIR ${CMAKE_INSTALL_DATADIR}/gpusoc/configs)
set(GPUSOC_PACKAGE_KERNEL_DIR ${CMAKE_INSTALL_DATADIR}/gpusoc/kernels)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/gpusocConfig.cmake.in
  ${PROJECT_BINARY_DIR}/package/gpusocConfig.cmake
  INSTALL_DESTINATION ${GPUSOC_PACKAGE_DIR}
  PATH_VARS GPUSOC_PACKAGE_CONFIG_DIR GPUSOC_PACKAGE_KERNEL_DIR)
install(FILES ${PROJECT_BINARY_DIR}/package/gpusocConfig.cmake
  ${PROJECT_BINARY_DIR}/gpusocConfigVersion.cmake DESTINATION ${GPUSOC_PACKAGE_DIR})
