# cmake -P build_and_run.cmake: configures SOURCE_DIR afresh in BUILD_DIR against the gpusoc
# package in GPUSOC_DIR, builds it, runs BUILD_DIR/PROGRAM with ARGS and requires exit status 0
# and a line of its output to be EXPECT.
function(step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  message("${out}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc})")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${BUILD_DIR})
step("configuring ${SOURCE_DIR}" ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${BUILD_DIR} -G ${GENERATOR}
  -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_BUILD_TYPE=${BUILD_TYPE}
  -DCMAKE_COMPILE_WARNING_AS_ERROR=ON -Dgpusoc_DIR=${GPUSOC_DIR})
step("building ${PROGRAM}" ${CMAKE_COMMAND} --build ${BUILD_DIR} -j 2)
step("running ${PROGRAM}" ${BUILD_DIR}/${PROGRAM} ${ARGS})
string(FIND "\n${step_output}" "\n${EXPECT}\n" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${PROGRAM} printed no line '${EXPECT}'")
endif()
