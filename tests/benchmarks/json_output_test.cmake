# bloomgate_benchmarks with Google Benchmark's standard output flags:
# --benchmark_format=json keeps stdout one JSON document (the ratio table
# goes to stderr), --benchmark_out=FILE writes JSON beside the console
# report, and both name the SIMD kernel that ran.
#
#   cmake -DBENCH=<bloomgate_benchmarks> -DWORK_DIR=<dir> -P json_output_test.cmake

set(filter "--benchmark_filter=^QueryNegative/(bloomgate_blocked|rocksdb_bloom)/10000$")
set(quick "--benchmark_min_time=0.01")

function(expect_benchmark_json json what)
  string(JSON kernel ERROR_VARIABLE err GET "${json}" context bloomgate_kernel)
  if(err OR NOT kernel MATCHES "^(scalar|avx2|avx512)$")
    message(FATAL_ERROR "${what}: no kernel in the JSON context (${err}):\n${json}")
  endif()
  string(JSON runs ERROR_VARIABLE err LENGTH "${json}" benchmarks)
  if(err OR NOT runs EQUAL 2)
    message(FATAL_ERROR "${what}: expected 2 benchmarks, got '${runs}' ${err}")
  endif()
endfunction()

execute_process(COMMAND "${BENCH}" "${filter}" "${quick}" --benchmark_format=json
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "--benchmark_format=json failed (${rc}):\n${err}")
endif()
expect_benchmark_json("${out}" "stdout with --benchmark_format=json")
if(NOT err MATCHES "Ratios against rocksdb_bloom")
  message(FATAL_ERROR "no ratio table on stderr:\n${err}")
endif()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
execute_process(COMMAND "${BENCH}" "${filter}" "${quick}"
  "--benchmark_out=${WORK_DIR}/out.json" --benchmark_out_format=json
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "--benchmark_out failed (${rc}):\n${err}")
endif()
file(READ "${WORK_DIR}/out.json" json)
expect_benchmark_json("${json}" "--benchmark_out file")
if(NOT out MATCHES "Ratios against rocksdb_bloom")
  message(FATAL_ERROR "no ratio table after the console report:\n${out}")
endif()
message(STATUS "JSON on stdout and in --benchmark_out; the ratio table printed")

# --bloomgate_keys picks the key counts: the names end in them.
execute_process(COMMAND "${BENCH}" --bloomgate_keys=2000,1e3
  "--benchmark_filter=^QueryNegative/rocksdb_bloom/" "${quick}"
  --benchmark_format=json
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "--bloomgate_keys=2000,1e3 failed (${rc}):\n${err}")
endif()
string(JSON first ERROR_VARIABLE json_err GET "${out}" benchmarks 0 name)
string(JSON second ERROR_VARIABLE json_err2 GET "${out}" benchmarks 1 name)
if(NOT first STREQUAL "QueryNegative/rocksdb_bloom/2000" OR
   NOT second STREQUAL "QueryNegative/rocksdb_bloom/1000")
  message(FATAL_ERROR "--bloomgate_keys: ran '${first}', '${second}'")
endif()
execute_process(COMMAND "${BENCH}" --bloomgate_keys=1e3,lots
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(rc EQUAL 0 OR NOT err MATCHES "--bloomgate_keys takes key counts")
  message(FATAL_ERROR "a bad --bloomgate_keys was accepted (${rc}):\n${err}")
endif()
