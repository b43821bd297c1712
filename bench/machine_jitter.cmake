# strata-machine-jitter: CPU time the machine takes from a spinning thread (the latency floor).
add_executable(strata-machine-jitter ${CMAKE_CURRENT_LIST_DIR}/machine_jitter.cc)
target_link_libraries(strata-machine-jitter PRIVATE CLI11::CLI11 Threads::Threads)
add_test(NAME machine_jitter_smoke COMMAND strata-machine-jitter --seconds 1)
set_tests_properties(machine_jitter_smoke PROPERTIES TIMEOUT 60
  PASS_REGULAR_EXPRESSION "\\| 0 \\| [0-9]+ \\|")
