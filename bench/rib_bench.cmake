# strata-rib-bench: a real IPv4 table through a real strata-rib process (see rib_bench.cc).
if(TARGET strata-rib)
  add_executable(strata-rib-bench ${CMAKE_CURRENT_LIST_DIR}/rib_bench.cc)
  target_link_libraries(strata-rib-bench PRIVATE strata_ipc CLI11::CLI11 Threads::Threads)
  add_dependencies(strata-rib-bench strata-rib strata-finder)
  add_test(NAME rib_bench_smoke COMMAND strata-rib-bench --smoke)
  set_tests_properties(rib_bench_smoke PROPERTIES TIMEOUT 120
    ENVIRONMENT "STRATA_BIN_DIR=${STRATA_BIN_DIR}")
endif()
