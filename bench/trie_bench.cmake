# strata-trie-bench: RouteTrie descents on a real full table (rib/family_trie.h, jump table).
if(NOT TARGET strata_rib_core)
  return()
endif()
add_executable(strata-trie-bench ${CMAKE_CURRENT_LIST_DIR}/trie_bench.cc)
target_link_libraries(strata-trie-bench PRIVATE strata_rib_core)
add_test(NAME trie_bench_smoke COMMAND strata-trie-bench --smoke)
