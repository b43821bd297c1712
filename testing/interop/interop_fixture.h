// InteropTest: the gtest fixture of the interop tests. Owns a temporary directory, the
// namespaces, veth links and speakers a test creates, and tears them down in the right order
// (speakers, links, namespaces) even when the test fails; on failure it prints every speaker's
// logs. STRATA_INTEROP_KEEP=1 keeps the directory (its path is printed) for a post-mortem.
// Skips the test when not root or when a daemon binary is missing.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "testing/interop/bgp_speaker.h"
#include "testing/interop/net_ns.h"
#include "testing/interop/veth_link.h"

// Asserts that a Status is OK, printing it when not.
#define ASSERT_OK(expr)                                       \
  do {                                                        \
    const ::strata::Status _st = (expr);                      \
    ASSERT_TRUE(_st.ok()) << #expr << ": " << _st.ToString(); \
  } while (0)
// The same, failing the test without returning.
#define EXPECT_OK(expr)                                       \
  do {                                                        \
    const ::strata::Status _st = (expr);                      \
    EXPECT_TRUE(_st.ok()) << #expr << ": " << _st.ToString(); \
  } while (0)

namespace strata::interop {

class InteropTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  // Skips the test unless `path` is an executable.
  void RequireBinary(const std::string& path);
  NetNs& AddNs(const std::string& tag);
  VethLink& AddLink(const NetNs& a, const NetNs& b, int n);
  // Creates a T (a BgpSpeaker) with its own directory; the caller starts it. `extra`: further
  // constructor arguments (StrataSpeaker's binaries).
  template <typename T, typename... Extra>
  T& AddSpeaker(const NetNs& ns, SpeakerConfig config, Extra&&... extra) {
    auto speaker =
        std::make_unique<T>(ns, config, SpeakerDir(config.name), std::forward<Extra>(extra)...);
    T& ref = *speaker;
    speakers_.push_back(std::move(speaker));
    return ref;
  }
  // The logs of every speaker (used in failure messages).
  std::string AllLogs() const;
  const std::string& dir() const { return dir_; }

 private:
  std::string SpeakerDir(const std::string& name);

  std::string dir_;
  std::vector<std::unique_ptr<NetNs>> namespaces_;
  std::vector<std::unique_ptr<VethLink>> links_;
  std::vector<std::unique_ptr<BgpSpeaker>> speakers_;
};

}  // namespace strata::interop
