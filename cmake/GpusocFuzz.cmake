# Fuzzing with libFuzzer (tests/fuzz, scripts/fuzz). -DGPUSOC_FUZZ=ON with clang
# (-DCMAKE_CXX_COMPILER=clang++-16) builds every library with AddressSanitizer, UndefinedBehavior-
# Sanitizer and the fuzzer's coverage instrumentation, and adds the targets fuzz_<name>
# (tests/fuzz/CMakeLists.txt). Build them by name: the rest of the project is not needed.
# Without GPUSOC_FUZZ the same targets build with any compiler as replay programs
# (fuzz_replay_<name>) that ctest runs on the committed corpora.
option(GPUSOC_FUZZ "Build the libFuzzer targets (clang only; adds sanitizers to every library)"
       OFF)

if(GPUSOC_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "GPUSOC_FUZZ needs clang (libFuzzer): configure with "
                        "-DCMAKE_CXX_COMPILER=clang++-16")
  endif()
  if(NOT GPUSOC_BUILD_TESTS)
    message(FATAL_ERROR "GPUSOC_FUZZ needs GPUSOC_BUILD_TESTS=ON (the targets are in tests/fuzz)")
  endif()
  # Coverage feedback from the project's own code; the fuzzer's main is linked into fuzz_<name>
  # only (tests/fuzz/CMakeLists.txt). Recovering from undefined behaviour would hide it.
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
                      -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
  # The project is warning-free under GCC, which gates it; clang's other warnings are shown
  # here but must not stop a fuzzing build.
  set_property(TARGET gpusoc_warnings APPEND PROPERTY INTERFACE_COMPILE_OPTIONS -Wno-error)
endif()
