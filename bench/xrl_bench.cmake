add_executable(strata-xrl-bench ${CMAKE_CURRENT_LIST_DIR}/xrl_bench.cc)
target_link_libraries(strata-xrl-bench PRIVATE strata_test_service CLI11::CLI11)
add_test(NAME xrl_bench_smoke COMMAND strata-xrl-bench --smoke)
set_tests_properties(xrl_bench_smoke PROPERTIES TIMEOUT 120)
