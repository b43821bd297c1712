# The IPC runtime: transports, targets, the Router, reflection, and strata-call.
add_subdirectory(interfaces)

find_package(OpenSSL REQUIRED)

add_library(strata_ipc STATIC
  channel.cc
  common_convert.cc
  common_service.cc
  frame.cc
  grpc_transport.cc
  ipc_limits.cc
  lifetime_watches.cc
  listener.cc
  log_service.cc
  method_naming.cc
  peer_credentials.cc
  read_only_methods.cc
  router.cc
  router_audit.cc
  router_finder_link.cc
  reflection.cc
  signature.cc
  socket_files.cc
  target.cc
)
target_include_directories(strata_ipc PUBLIC ${CMAKE_SOURCE_DIR})
target_link_libraries(strata_ipc PUBLIC strata_common strata_xrl strata_interfaces
  Boost::headers OpenSSL::Crypto Threads::Threads gRPC::grpc++)

add_library(strata_xrl_caller STATIC call/xrl_caller.cc call/atoms_json.cc)
target_link_libraries(strata_xrl_caller PUBLIC strata_ipc)

add_executable(strata-call call/main.cc)
target_link_libraries(strata-call PRIVATE strata_xrl_caller CLI11::CLI11)

add_library(strata_test_service STATIC demo/test_service.cc)
target_link_libraries(strata_test_service PUBLIC strata_ipc)

add_executable(strata-test-target demo/main.cc)
target_link_libraries(strata-test-target PRIVATE strata_test_service CLI11::CLI11)

strata_test(ipc_unit_test SOURCES frame_test.cc ipc_limits_test.cc lifetime_watches_test.cc
  reflection_test.cc socket_files_test.cc LIBS strata_ipc)

# Profiling points over IPC (profile/1.0) and strata-profile, their collector.
add_library(strata_profile_report STATIC profile/profile_report.cc)
target_link_libraries(strata_profile_report PUBLIC strata_common)
add_library(strata_profile STATIC profile/profile_service.cc)
target_link_libraries(strata_profile PUBLIC strata_ipc strata_profile_report)
add_executable(strata-profile profile/main.cc)
target_link_libraries(strata-profile PRIVATE strata_profile CLI11::CLI11)
strata_test(profile_test SOURCES profile/profile_test.cc LIBS strata_profile strata_testing_finder)
