# strata-policy-refilter-bench: how long strata-bgp's pipeline blocks on a policy change
# (longest scheduler slice), sliced vs one slice for the whole walk (see policy_refilter_bench.cc).
if(TARGET strata_bgp_pipeline)
  add_executable(strata-policy-refilter-bench ${CMAKE_CURRENT_LIST_DIR}/policy_refilter_bench.cc)
  target_link_libraries(strata-policy-refilter-bench PRIVATE strata_bgp_pipeline)
  add_test(NAME policy_refilter_bench_smoke COMMAND strata-policy-refilter-bench 2000)
  set_tests_properties(policy_refilter_bench_smoke PROPERTIES TIMEOUT 120)
endif()
