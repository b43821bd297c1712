# strata-bgp-bench: BGP routers side by side (BIRD, FRR, GoBGP, Strata) in network namespaces
# with a tester speaker on bgp/wire. See README-bgp.md.
if(NOT TARGET strata_bgp_wire OR NOT TARGET strata_profile_report)
  return()
endif()
add_executable(strata-bgp-bench
  ${CMAKE_CURRENT_LIST_DIR}/bgp_bench_main.cc
  ${CMAKE_CURRENT_LIST_DIR}/bgp_kernel_routes.cc
  ${CMAKE_CURRENT_LIST_DIR}/bgp_netns.cc
  ${CMAKE_CURRENT_LIST_DIR}/bgp_process.cc
  ${CMAKE_CURRENT_LIST_DIR}/bgp_profile_phase.cc
  ${CMAKE_CURRENT_LIST_DIR}/bgp_report.cc
  ${CMAKE_CURRENT_LIST_DIR}/bgp_route_counter.cc
  ${CMAKE_CURRENT_LIST_DIR}/bgp_router.cc
  ${CMAKE_CURRENT_LIST_DIR}/bgp_router_bird.cc
  ${CMAKE_CURRENT_LIST_DIR}/bgp_router_frr.cc
  ${CMAKE_CURRENT_LIST_DIR}/bgp_router_gobgp.cc
  ${CMAKE_CURRENT_LIST_DIR}/bgp_router_relay.cc
  ${CMAKE_CURRENT_LIST_DIR}/bgp_router_run.cc
  ${CMAKE_CURRENT_LIST_DIR}/bgp_router_strata.cc
  ${CMAKE_CURRENT_LIST_DIR}/bgp_table.cc
  ${CMAKE_CURRENT_LIST_DIR}/bgp_tester_session.cc
  ${CMAKE_CURRENT_LIST_DIR}/thread_priority.cc
)
target_include_directories(strata-bgp-bench PRIVATE ${CMAKE_SOURCE_DIR})
target_link_libraries(strata-bgp-bench PRIVATE strata_bgp_wire strata_profile_report CLI11::CLI11
  Threads::Threads)
# The floor the routers are measured against (bgp_relay_main.cc).
add_executable(strata-bgp-relay ${CMAKE_CURRENT_LIST_DIR}/bgp_relay_main.cc)
target_include_directories(strata-bgp-relay PRIVATE ${CMAKE_SOURCE_DIR})
target_link_libraries(strata-bgp-relay PRIVATE strata_bgp_wire CLI11::CLI11)
add_dependencies(strata-bgp-bench strata-bgp-relay)
# Smoke: N = 1000 through every installed router; BIRD must be there, and Strata when this
# build has strata-bgp. Exit 77 (not root) counts as skipped.
set(_bgp_bench_require bird)
if(TARGET strata-bgp)
  add_dependencies(strata-bgp-bench strata-bgp strata-rib strata-finder strata-call strata-fea
    strata-profile)
  set(_bgp_bench_require bird,strata)
endif()
add_test(NAME bgp_bench_smoke
  COMMAND strata-bgp-bench --smoke --require ${_bgp_bench_require})
set_tests_properties(bgp_bench_smoke PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77
  ENVIRONMENT "STRATA_BIN_DIR=${STRATA_BIN_DIR}")
