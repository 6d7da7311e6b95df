# SPDX-License-Identifier: Apache-2.0
# Shared by the libFuzzer folders (doctor/, import/, readers/), each with a run_fuzzers.sh that has a "build"
# and a "run" mode (fuzz_common.sh). Both tests skip (exit 77) where clang++ or libFuzzer is missing.
#   pf_add_fuzz_build(AREA ARGS...)   test pf_AREA_fuzz_build: run_fuzzers.sh build CLANGXX BINARY_DIR SRCROOT ARGS...
#   pf_add_fuzz_run(AREA NAME BINARY SECONDS CORPUS [MORE_CORPUS...])   test pf_AREA_fuzz_NAME, after the build
find_program(PF_CLANGXX NAMES clang++ clang++-16 clang++-15 clang++-14)

function(pf_add_fuzz_build area)
  add_test(NAME pf_${area}_fuzz_build
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/run_fuzzers.sh build "${PF_CLANGXX}" ${CMAKE_CURRENT_BINARY_DIR}
            ${PROJECT_SOURCE_DIR} ${ARGN})
  # A build, not a timed test: its limit only stops a compiler that hangs. 600 s was once too little for the
  # doctor's sources on 2 cores beside another test.
  set_tests_properties(pf_${area}_fuzz_build PROPERTIES LABELS "unit;fuzz" TIMEOUT 1500 SKIP_RETURN_CODE 77
    FIXTURES_SETUP pf_${area}_fuzzers)
endfunction()

function(pf_add_fuzz_run area name binary seconds corpus)
  add_test(NAME pf_${area}_fuzz_${name}
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/run_fuzzers.sh run ${binary} ${corpus} ${seconds} ${ARGN})
  set_tests_properties(pf_${area}_fuzz_${name} PROPERTIES LABELS "unit;fuzz" TIMEOUT 300 SKIP_RETURN_CODE 77
    FIXTURES_REQUIRED pf_${area}_fuzzers)
endfunction()
