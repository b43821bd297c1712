#include "testing/interop/interop_fixture.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <stdexcept>

namespace strata::interop {

void InteropTest::SetUp() {
  if (!NetNs::Available()) GTEST_SKIP() << "needs root and ip netns";
  char tmpl[] = "/tmp/strata-iop-XXXXXX";
  dir_ = ::mkdtemp(tmpl);
  ::chmod(dir_.c_str(), 0755);
}

void InteropTest::TearDown() {
  if (HasFailure()) std::cerr << AllLogs();
  for (auto& s : speakers_) s->Stop();
  speakers_.clear();
  links_.clear();
  namespaces_.clear();
  if (dir_.empty()) return;
  const char* keep = std::getenv("STRATA_INTEROP_KEEP");
  if (keep != nullptr && std::string(keep) == "1") {
    std::cerr << "interop files kept in " << dir_ << "\n";
  } else {
    std::filesystem::remove_all(dir_);
  }
}

void InteropTest::RequireBinary(const std::string& path) {
  if (::access(path.c_str(), X_OK) != 0) GTEST_SKIP() << path << " is not installed";
}

NetNs& InteropTest::AddNs(const std::string& tag) {
  auto ns = NetNs::Create(tag);
  if (!ns.ok()) {
    ADD_FAILURE() << ns.status().ToString();
    throw std::runtime_error("namespace");
  }
  namespaces_.push_back(std::move(*ns));
  return *namespaces_.back();
}

VethLink& InteropTest::AddLink(const NetNs& a, const NetNs& b, int n) {
  auto link = VethLink::Create(a, b, n);
  if (!link.ok()) {
    ADD_FAILURE() << link.status().ToString();
    throw std::runtime_error("veth");
  }
  links_.push_back(std::move(*link));
  return *links_.back();
}

std::string InteropTest::SpeakerDir(const std::string& name) {
  const std::string d = dir_ + "/" + name;
  std::filesystem::create_directories(d);
  return d;
}

std::string InteropTest::AllLogs() const {
  std::string s;
  for (const auto& sp : speakers_) {
    s += "===== " + sp->config().name + " (" + sp->dir() + ")\n" + sp->Logs() + "\n";
  }
  return s;
}

}  // namespace strata::interop
