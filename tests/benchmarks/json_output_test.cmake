# bloomgate_benchmarks with Google Benchmark's standard output flags:
# --benchmark_format=json keeps stdout one JSON document (the ratio table
# goes to stderr), --benchmark_out=FILE writes JSON beside the console
# report, and both name the SIMD kernel that ran and the CPU the run was
# pinned to (--bloomgate_cpu).
#
#   cmake -DBENCH=<bloomgate_benchmarks> -DWORK_DIR=<dir> -P json_output_test.cmake

set(filter "--benchmark_filter=^QueryNegative/(bloomgate|rocksdb_bloom)/10000$")
set(quick "--benchmark_min_time=0.01")

function(expect_benchmark_json json what)
  string(JSON kernel ERROR_VARIABLE err GET "${json}" context bloomgate_kernel)
  if(err OR NOT kernel MATCHES "^(scalar|avx2)$")
    message(FATAL_ERROR "${what}: no kernel in the JSON context (${err}):\n${json}")
  endif()
  string(JSON cpu ERROR_VARIABLE err GET "${json}" context cpu)
  if(err OR NOT cpu MATCHES "^[0-9]+ \\(pinned\\)$")
    message(FATAL_ERROR "${what}: no pinned CPU in the JSON context (${err}):\n${json}")
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
# A CPU this process may run on, for --bloomgate_cpu below.
string(JSON default_cpu GET "${out}" context cpu)
string(REGEX MATCH "^[0-9]+" allowed_cpu "${default_cpu}")
if(NOT err MATCHES "Ratios in this run")
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
if(NOT out MATCHES "Ratios in this run")
  message(FATAL_ERROR "no ratio table after the console report:\n${out}")
endif()
message(STATUS "JSON on stdout and in --benchmark_out; the ratio table printed")

# Sets <out_var> to the JSON report of a run with the arguments that
# follow; a run that fails fails the test.
function(run_json out_var)
  execute_process(COMMAND "${BENCH}" ${ARGN} "${quick}" --benchmark_format=json
    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${ARGN} failed (${rc}):\n${err}")
  endif()
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()

# --bloomgate_keys picks the key counts: the names end in them.
run_json(out --bloomgate_keys=2000,1e3
  "--benchmark_filter=^QueryNegative/rocksdb_bloom/")
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

# --bloomgate_cpu pins to the CPU it names, or to none with "any"; anything
# else is refused.
function(expect_cpu_context flag expected)
  run_json(out "${flag}"
    "--benchmark_filter=^QueryNegative/rocksdb_bloom/10000$")
  string(JSON cpu ERROR_VARIABLE json_err GET "${out}" context cpu)
  if(NOT cpu STREQUAL expected)
    message(FATAL_ERROR "${flag}: context cpu '${cpu}', expected '${expected}'")
  endif()
endfunction()
expect_cpu_context(--bloomgate_cpu=${allowed_cpu} "${allowed_cpu} (pinned)")
expect_cpu_context(--bloomgate_cpu=any "any (not pinned)")
execute_process(COMMAND "${BENCH}" --bloomgate_cpu=first
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(rc EQUAL 0 OR NOT err MATCHES "--bloomgate_cpu takes a CPU number")
  message(FATAL_ERROR "a bad --bloomgate_cpu was accepted (${rc}):\n${err}")
endif()

# --bloomgate_block_offset places every filter's block that many bytes past
# a 64-byte boundary, and says so in the context; 64 and more are refused.
run_json(out --bloomgate_block_offset=16
  "--benchmark_filter=^QueryNegative/rocksdb_bloom/10000$")
string(JSON offset ERROR_VARIABLE json_err GET "${out}" context block_offset)
if(NOT offset STREQUAL "16 bytes past a 64-byte boundary")
  message(FATAL_ERROR "--bloomgate_block_offset=16: context '${offset}' ${json_err}")
endif()
execute_process(COMMAND "${BENCH}" --bloomgate_block_offset=64
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(rc EQUAL 0 OR NOT err MATCHES "--bloomgate_block_offset takes a byte offset")
  message(FATAL_ERROR "a bad --bloomgate_block_offset was accepted (${rc}):\n${err}")
endif()

# --bloomgate_breakdown adds its stub readers to the absent-key query phases
# alone: harness_only answers without hashing (never "may match"),
# bloomgate_hash_only with its hash's top bit (half the keys, over the 2^22
# absent keys fp_rate counts: 0.5 +- 0.00025 for one standard error).
run_json(out --bloomgate_breakdown --bloomgate_keys=1000
  "--benchmark_filter=^(Build|QueryNegative|QueryPositive|QueryNegativeBatch)/(harness_only|bloomgate_hash_only)/")
string(JSON runs ERROR_VARIABLE json_err LENGTH "${out}" benchmarks)
if(NOT runs EQUAL 4)
  message(FATAL_ERROR "--bloomgate_breakdown: expected 4 stub rows, got '${runs}' ${json_err}:\n${out}")
endif()
foreach(i RANGE 3)
  string(JSON name GET "${out}" benchmarks ${i} name)
  string(JSON fp GET "${out}" benchmarks ${i} fp_rate)
  if(NOT name MATCHES "^QueryNegative(Batch)?/")
    message(FATAL_ERROR "--bloomgate_breakdown: a stub in another phase: ${name}")
  endif()
  if(name MATCHES "/harness_only/" AND NOT fp EQUAL 0)
    message(FATAL_ERROR "${name}: fp_rate ${fp}, expected 0")
  endif()
  if(name MATCHES "/bloomgate_hash_only/" AND (fp LESS 0.49 OR fp GREATER 0.51))
    message(FATAL_ERROR "${name}: fp_rate ${fp}, expected the hash's top bit, 0.5")
  endif()
endforeach()
# Without the flag, no stub runs.
run_json(out "--benchmark_filter=^QueryNegative/harness_only/")
if(NOT out STREQUAL "")
  message(FATAL_ERROR "a stub ran without --bloomgate_breakdown:\n${out}")
endif()
