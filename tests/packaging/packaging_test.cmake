# ctest script (cmake -P): installs the build in BUILD_DIR into a temporary
# prefix, then configures, builds and runs the consumer project in
# CONSUMER_SOURCE_DIR against it, the way a service would use bloomgate.
# -DBUILD_DIR= -DWORK_DIR= -DCONSUMER_SOURCE_DIR= -DGENERATOR= -DCXX_COMPILER=
# -DCONSUMER_CXX_FLAGS= -DEXPECT_LSM=

set(prefix "${WORK_DIR}/prefix")
set(consumer_build "${WORK_DIR}/consumer-build")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REPLACE ";" " " cmd "${ARGN}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${cmd}\n${out}\n${err}")
  endif()
  message(STATUS "ok: ${cmd}")
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

step("${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}")

foreach(f include/bloomgate/rocksdb_filter_policy.h
          include/bloomgate/filter_builder.h
          lib/libbloomgate_core.a lib/libbloomgate_rocksdb.a
          lib/cmake/bloomgate/bloomgateConfig.cmake
          lib/cmake/bloomgate/bloomgateConfigVersion.cmake
          lib/cmake/bloomgate/bloomgateTargets.cmake)
  string(REGEX REPLACE "^lib/" "lib*/" pattern "${f}")
  file(GLOB found "${prefix}/${pattern}")
  if(NOT found)
    message(FATAL_ERROR "not installed: ${prefix}/${f}")
  endif()
endforeach()
# Only the public API: nothing from src/.
file(GLOB_RECURSE internal "${prefix}/include/*filter_bits.h"
     "${prefix}/include/src/*")
if(internal)
  message(FATAL_ERROR "internal headers installed: ${internal}")
endif()

step("${CMAKE_COMMAND}" -S "${CONSUMER_SOURCE_DIR}" -B "${consumer_build}"
     -G "${GENERATOR}" "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}"
     "-DCMAKE_CXX_FLAGS=${CONSUMER_CXX_FLAGS}"
     "-DCMAKE_EXE_LINKER_FLAGS=${CONSUMER_CXX_FLAGS}"
     -DCMAKE_BUILD_TYPE=Release "-DCMAKE_PREFIX_PATH=${prefix}"
     "-DEXPECT_LSM=${EXPECT_LSM}")
step("${CMAKE_COMMAND}" --build "${consumer_build}")
step("${consumer_build}/bloomgate_consumer" "${WORK_DIR}/db")
if(NOT step_output MATCHES "bloomgate consumer: OK")
  message(FATAL_ERROR "unexpected consumer output:\n${step_output}")
endif()
