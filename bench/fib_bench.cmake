# Needs the FIB library (fea/ in STRATA_COMPONENTS).
if(NOT TARGET strata_fib)
  return()
endif()
# strata-fib-bench: shared multi-VR FIB vs per-VR LC-tries on real tables (see docs/fib.md).
add_executable(strata-fib-bench ${CMAKE_CURRENT_LIST_DIR}/fib_bench.cc)
target_link_libraries(strata-fib-bench PRIVATE strata_fib)
add_test(NAME fib_bench_smoke COMMAND strata-fib-bench --smoke)
