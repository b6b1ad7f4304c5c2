# ctest script (cmake -P): bloomgate_ldb writes a small DB, compacts it into an
# SST file with a bloomgate filter, reads it back; bloomgate_sst_dump checks
# the file and shows its properties. -DLDB=, -DSST_DUMP=, -DWORK_DIR=.

set(db "${WORK_DIR}/db")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

# Runs the command, fails unless it exits 0 and its output matches `expect`.
function(run expect)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REPLACE ";" " " cmd "${ARGN}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "exit ${rc}: ${cmd}\n${out}\n${err}")
  endif()
  if(NOT "${out}" MATCHES "${expect}")
    message(FATAL_ERROR "output of: ${cmd}\n${out}\n${err}\ndoes not match: ${expect}")
  endif()
  message(STATUS "ok: ${cmd}")
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

run("OK" "${LDB}" "--db=${db}" --create_if_missing
    batchput apple 1 banana 2 cherry 3 damson 4)
run("" "${LDB}" "--db=${db}" compact)
run("^2\n$" "${LDB}" "--db=${db}" get banana)
# ldb scan separates key and value with " : " in 7.x, " ==> " in 11.x.
run("apple (:|==>) 1\nbanana (:|==>) 2\ncherry (:|==>) 3\ndamson (:|==>) 4"
    "${LDB}" "--db=${db}" scan)
# The OPTIONS file names the policy, and ldb (which loads it) still works.
file(GLOB options_files "${db}/OPTIONS-*")
list(LENGTH options_files n)
if(n EQUAL 0)
  message(FATAL_ERROR "no OPTIONS file in ${db}")
endif()
list(GET options_files -1 options_file)
file(READ "${options_file}" options_text)
if(NOT options_text MATCHES "filter_policy=bloomgate:10:blocked")
  message(FATAL_ERROR "${options_file} does not name bloomgate:\n${options_text}")
endif()
# A missing key, answered through the filter: ldb 7.x fails with NotFound,
# 11.x prints "Key not found" and exits 0.
execute_process(COMMAND "${LDB}" "--db=${db}" get blueberry
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT "${out}${err}" MATCHES "NotFound|Key not found" OR
   (rc EQUAL 0 AND NOT "${out}${err}" MATCHES "Key not found"))
  message(FATAL_ERROR "get of a missing key: exit ${rc}\n${out}\n${err}")
endif()

file(GLOB ssts "${db}/*.sst")
list(LENGTH ssts n)
if(NOT n EQUAL 1)
  message(FATAL_ERROR "expected one SST file in ${db}, found ${n}: ${ssts}")
endif()
run("filter policy name: bloomgate" "${SST_DUMP}" "--file=${ssts}"
    --show_properties)
run("apple.*banana.*cherry.*damson" "${SST_DUMP}" "--file=${ssts}"
    --command=scan)
run("" "${SST_DUMP}" "--file=${db}" --command=check --verify_checksum)
