# Runner self-test for `pbem scenario --bless` (ctest scenario_runner_bless).
#
#   cmake -DPBEM=<pbem executable> -DSRC=<tests/scenario_selftest> -DWORK=<scratch dir>
#         -P bless_check.cmake
#
# Copies bless/needs-blessing.case.textproto (whose expectation is wrong) into WORK with a
# SCHEDULE of its own, then checks that: the case fails; --bless rewrites it and says
# BLESSED; the rewritten file differs from the original only inside the expect block; and
# the case then passes.
foreach(var PBEM SRC WORK)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "bless_check: -D${var}=... is required")
  endif()
endforeach()

set(name needs-blessing.case.textproto)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
file(COPY "${SRC}/bless/${name}" DESTINATION "${WORK}")
file(WRITE "${WORK}/SCHEDULE" "PASS ${name}\n")
file(READ "${WORK}/${name}" original)

function(run_pbem expected_rc out_var)
  execute_process(COMMAND "${PBEM}" scenario ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL expected_rc)
    message(FATAL_ERROR "bless_check: `pbem scenario ${ARGN}` exited ${rc}, expected "
                        "${expected_rc}\n${out}${err}")
  endif()
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()

run_pbem(1 before "${WORK}")
if(NOT before MATCHES "expect.result: expected \"4\", actual \"5\"")
  message(FATAL_ERROR "bless_check: the unblessed case should fail on expect.result:\n${before}")
endif()

run_pbem(1 blessing --bless "${WORK}")
if(NOT blessing MATCHES "BLESSED [^\n]*${name}")
  message(FATAL_ERROR "bless_check: --bless did not report BLESSED:\n${blessing}")
endif()

file(READ "${WORK}/${name}" blessed)
string(REPLACE
  "expect {\n  result: \"4\"  # this comment is inside the block: it is replaced\n}"
  "expect {\n  result: \"5\"\n}"
  want "${original}")
if(want STREQUAL original)
  message(FATAL_ERROR "bless_check: the fixture's expect block is not the one this script expects")
endif()
if(NOT blessed STREQUAL want)
  message(FATAL_ERROR "bless_check: the blessed file is not the original with only its expect "
                      "block replaced.\n--- got:\n${blessed}\n--- want:\n${want}")
endif()

run_pbem(0 after "${WORK}")
if(NOT after MATCHES "PASS [^\n]*${name}\n1 passed, 0 failed\n")
  message(FATAL_ERROR "bless_check: the blessed case does not pass:\n${after}")
endif()
message(STATUS "bless_check: OK")
