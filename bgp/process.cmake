# strata-bgp: the process library (bgp/process), the executable and their tests.
add_library(strata_bgp_process STATIC
  process/asio_clock.cc
  process/attribute_interner.cc
  process/bgp_peer.cc
  process/bgp_peer_policy.cc
  process/bgp_process.cc
  process/bgp_proto_convert.cc
  process/bgp_service.cc
  process/bgp_service_damping.cc
  process/bgp_service_show.cc
  process/damping_convert.cc
  process/bgp_speaker.cc
  process/bgp_speaker_restart.cc
  process/bgp_speaker_redist.cc
  process/bgp_speaker_vr_policy.cc
  process/vr_policy.cc
  process/rib_redist_client.cc
  process/output_gate.cc
  process/redist_stale.cc
  process/peer_graceful_restart.cc
  process/policy.cc
  process/policy_community.cc
  process/policy_hook.cc
  process/policy_proto_convert.cc
  process/rib_ipc_sink.cc
  process/rib_nexthop_oracle.cc
)
target_include_directories(strata_bgp_process PUBLIC ${CMAKE_SOURCE_DIR})
# GCC 12's <regex> trips -Wmaybe-uninitialized under -fsanitize at -O2 (GCC bug 105562).
set_source_files_properties(process/policy.cc PROPERTIES COMPILE_OPTIONS -Wno-maybe-uninitialized)
target_link_libraries(strata_bgp_process PUBLIC strata_bgp_pipeline strata_bgp_session
                      strata_rib_service strata_ipc)

add_executable(strata-bgp main.cc)
target_link_libraries(strata-bgp PRIVATE strata_bgp_process CLI11::CLI11)

strata_test(bgp_process_test
  SOURCES
    process/policy_test.cc
    process/policy_community_test.cc
    process/policy_proto_convert_test.cc
    process/rib_ipc_test.cc
    process/bgp_speaker_test.cc
    process/damping_speaker_test.cc
    process/route_reflection_speaker_test.cc
    process/change_peer_speaker_test.cc
    process/confederation_speaker_test.cc
    process/asio_clock_test.cc
    process/output_gate_test.cc
    process/attribute_interner_test.cc
    process/bgp_proto_convert_test.cc
    process/graceful_restart_process_test.cc
    process/graceful_restart_deferral_test.cc
    process/llgr_process_test.cc
    process/redistribute_process_test.cc
    process/redist_stale_test.cc
    process/speaker_pair_fixture.cc
    process/drop_tcp.cc
    ${CMAKE_SOURCE_DIR}/rib/fake_fea.cc
    process/vr_policy_test.cc
    process/vr_policy_process_test.cc
    process/input_flow_speaker_test.cc
  LIBS strata_bgp_process strata_finder)

# Starts strata-finder, strata-rib and strata-bgp processes; drives them with strata-call.
strata_test(bgp_process_it_test
  SOURCES process/bgp_process_it_test.cc ${CMAKE_SOURCE_DIR}/tests/process_harness.cc
  LIBS strata_bgp_wire)
add_dependencies(bgp_process_it_test strata-bgp strata-rib strata-finder strata-call strata-fea)
