# The IPC runtime: transports, targets, the Router, reflection, and strata-call.
add_subdirectory(interfaces)

find_package(OpenSSL REQUIRED)

add_library(strata_ipc STATIC
  channel.cc
  frame.cc
  listener.cc
  method_naming.cc
  router.cc
  signature.cc
  target.cc
)
target_include_directories(strata_ipc PUBLIC ${CMAKE_SOURCE_DIR})
target_link_libraries(strata_ipc PUBLIC strata_common strata_xrl strata_interfaces
  Boost::headers OpenSSL::Crypto Threads::Threads)
