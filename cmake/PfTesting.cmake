# SPDX-License-Identifier: Apache-2.0
# pf_add_test(NAME SOURCES ... [LIBS ...] [LABELS ...]): one GoogleTest executable, discovered by CTest.
# Labels select what runs where: `unit` everywhere, `mpi` needs Open MPI, `gpu` needs a GPU (the tests
# GTEST_SKIP with a reason when there is none), `cluster` needs root and network namespaces.
function(pf_add_test name)
  cmake_parse_arguments(T "" "TIMEOUT" "SOURCES;LIBS;LABELS" ${ARGN})
  if(NOT T_LABELS)
    set(T_LABELS unit)
  endif()
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 120)
  endif()
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE ${T_LIBS} GTest::gtest_main GTest::gmock)
  # A GTEST_SKIP'ed test exits 0; without this CTest would count "no GPU" as a pass.
  set(skip "")
  if("gpu" IN_LIST T_LABELS)
    set(skip SKIP_REGULAR_EXPRESSION "\\[  SKIPPED \\]")
  endif()
  gtest_discover_tests(${name}
    PROPERTIES LABELS "${T_LABELS}" TIMEOUT ${T_TIMEOUT} ${skip}
    DISCOVERY_TIMEOUT 60)
endfunction()
