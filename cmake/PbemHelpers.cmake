# Helpers shared by every folder's CMakeLists.txt. Included once from the top-level file.
#
#   pbem_add_catch_test(<name> <sources>... [LIBS <libs>...] [TIMEOUT <seconds>])
#       A Catch2 v2 test executable linked with the shared main (pbem_catch_main), registered
#       as ONE ctest test named <name> (cheaper on 2 cores than one ctest test per case).
#   pbem_add_benchmark(<name> <sources>... [LIBS <libs>...])
#       A Google Benchmark executable. A source may define main with BENCHMARK_MAIN(); if none
#       does, benchmark::benchmark_main supplies it. Each one is also a quick ctest smoke test
#       (label "bench"), and `make bench` / `cmake --build <dir> --target bench` runs them all.
#       Does nothing when benchmarks are disabled (PBEM_BUILD_BENCH / engine-only).
#   pbem_define_bench_target()            top-level only, after every add_subdirectory()
#   pbem_add_engine_link_check(<test> <exe> <lib>...) top-level only: a link-line check

include_guard(GLOBAL)

set(PBEM_BENCH_MIN_TIME 0.2 CACHE STRING
    "--benchmark_min_time (seconds) used by the bench target")
set(_PBEM_LINK_CHECK_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/CheckEngineLinkLine.cmake)

function(pbem_add_catch_test name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "TIMEOUT" "LIBS")
  if(NOT TARGET pbem_catch_main)
    message(FATAL_ERROR "pbem_add_catch_test(${name}): Catch2 is not configured "
                        "(engine-only build?); the engine's tests use their own harness")
  endif()
  if(NOT ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "pbem_add_catch_test(${name}): no sources given")
  endif()
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 600)
  endif()
  add_executable(${name} ${ARG_UNPARSED_ARGUMENTS})
  target_link_libraries(${name} PRIVATE pbem_catch_main Catch2::Catch2 ${ARG_LIBS})
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES TIMEOUT ${ARG_TIMEOUT} LABELS catch)
endfunction()

function(pbem_add_benchmark name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "" "LIBS")
  if(NOT PBEM_BENCH_ENABLED)
    return()
  endif()
  if(NOT ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "pbem_add_benchmark(${name}): no sources given")
  endif()
  add_executable(${name} ${ARG_UNPARSED_ARGUMENTS})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} benchmark::benchmark benchmark::benchmark_main)
  # Smoke test: every benchmark runs (briefly) under ctest, so a crashing one fails CI.
  add_test(NAME bench_smoke_${name} COMMAND ${name} --benchmark_min_time=0.001)
  set_tests_properties(bench_smoke_${name} PROPERTIES TIMEOUT 300 LABELS bench)
  set_property(GLOBAL APPEND PROPERTY PBEM_BENCHMARKS ${name})
endfunction()

function(pbem_define_bench_target)
  if(TARGET bench)
    message(FATAL_ERROR "pbem_define_bench_target() called twice")
  endif()
  get_property(benches GLOBAL PROPERTY PBEM_BENCHMARKS)
  if(NOT PBEM_BENCH_ENABLED)
    add_custom_target(bench
      COMMAND ${CMAKE_COMMAND} -E echo
              "bench: benchmarks are disabled (Google Benchmark not found, PBEM_BUILD_BENCH=OFF or engine-only)"
      VERBATIM)
    return()
  endif()
  if(NOT benches)
    add_custom_target(bench
      COMMAND ${CMAKE_COMMAND} -E echo "bench: no benchmark is registered yet"
      VERBATIM)
    return()
  endif()
  set(commands)
  foreach(bench_name IN LISTS benches)
    list(APPEND commands
      COMMAND ${CMAKE_COMMAND} -E echo "== bench: ${bench_name}"
      COMMAND ${bench_name} --benchmark_min_time=${PBEM_BENCH_MIN_TIME})
  endforeach()
  # One target with sequential commands: benchmarks never run concurrently with each other.
  add_custom_target(bench ${commands} USES_TERMINAL VERBATIM)
  add_dependencies(bench ${benches})
endfunction()

# Registers the ctest tests <test> and <test>_selftest: <exe> links the engine libraries
# <lib>... and nothing but the toolchain.
function(pbem_add_engine_link_check test exe)
  set(libs ${ARGN})
  list(GET libs 0 first_lib)
  get_target_property(exe_dir ${exe} BINARY_DIR)
  set(lib_links "")
  set(lib_flags "")
  foreach(lib IN LISTS libs)
    get_target_property(lib_dir ${lib} BINARY_DIR)
    list(APPEND lib_links ${lib_dir}/CMakeFiles/${lib}.dir/link.txt)
    list(APPEND lib_flags ${lib_dir}/CMakeFiles/${lib}.dir/flags.make)
  endforeach()
  # Comma-separated: a ;-list would be split into several command-line arguments.
  string(REPLACE ";" "," lib_names "${libs}")
  string(REPLACE ";" "," lib_links "${lib_links}")
  string(REPLACE ";" "," lib_flags "${lib_flags}")
  set(common -DLIB_NAMES=${lib_names} -DEXE_NAME=${exe}
             -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DBINARY_DIR=${PROJECT_BINARY_DIR})
  if(CMAKE_GENERATOR MATCHES "Makefiles")
    set(args -DMODE=makefiles
             -DEXE_LINK=${exe_dir}/CMakeFiles/${exe}.dir/link.txt
             -DLIB_LINKS=${lib_links}
             -DLIB_FLAGS=${lib_flags})
  elseif(CMAKE_GENERATOR STREQUAL "Ninja")
    set(args -DMODE=ninja -DBUILD_NINJA=${PROJECT_BINARY_DIR}/build.ninja)
  else()
    message(WARNING "engine_link_line: generator '${CMAKE_GENERATOR}' is not supported by "
                    "cmake/CheckEngineLinkLine.cmake; the check is not registered")
    return()
  endif()
  add_test(NAME ${test}
           COMMAND ${CMAKE_COMMAND} ${common} ${args} -P ${_PBEM_LINK_CHECK_SCRIPT})
  set_tests_properties(${test} PROPERTIES LABELS engine)

  # The check must be able to fail: feed it a link line naming -lPocoFoundation.
  set(planted ${PROJECT_BINARY_DIR}/${test}_selftest/link.txt)
  file(WRITE ${planted}
       "/usr/bin/c++ -O2 CMakeFiles/${exe}.dir/main.cc.o -o ../../bin/${exe} "
       "../../engine/lib${first_lib}.a -lPocoFoundation\n")
  add_test(NAME ${test}_selftest
           COMMAND ${CMAKE_COMMAND} ${common} -DMODE=makefiles -DEXE_LINK=${planted}
                   -P ${_PBEM_LINK_CHECK_SCRIPT})
  set_tests_properties(${test}_selftest PROPERTIES
    LABELS engine
    PASS_REGULAR_EXPRESSION "engine_link_line: FAILED.*-lPocoFoundation")
endfunction()
