// ProcessCatalog: what each process is started with (binary, VR, rights, priority, tunables).
#include "rtrmgr/process_catalog.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace strata::rtrmgr {
namespace {

bool Has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

TEST(ProcessCatalogTest, PriorityAndTunablesByProcess) {
  ProcessCatalog::Options o;
  o.bin_dir = "/opt/strata/bin";
  o.nice = {{"rib", 10}, {"fea", 5}};
  o.glibc_tunables = "glibc.malloc.hugetlb=1";
  o.await_config_ms = 0;
  ProcessCatalog catalog(o);
  finder::v1::SetPermissionsRequest rights;
  const ProcessSpec rib = catalog.For({"rib", "rib.blue", 20, {}}, &rights);
  EXPECT_EQ(rib.argv, (std::vector<std::string>{"/opt/strata/bin/strata-rib", "--vr", "blue"}));
  EXPECT_EQ(rib.nice, 10);
  EXPECT_TRUE(Has(rib.env, "GLIBC_TUNABLES=glibc.malloc.hugetlb=1"));
  EXPECT_EQ(catalog.For({"fea", "fea", 10, {}}, nullptr).nice, 5);
  const ProcessSpec bgp = catalog.For({"bgp", "bgp.blue", 30, {}}, nullptr);
  EXPECT_EQ(bgp.nice, 0);
  EXPECT_TRUE(Has(bgp.env, "GLIBC_TUNABLES=glibc.malloc.hugetlb=1"));
  EXPECT_TRUE(Has(catalog.Finder().env, "GLIBC_TUNABLES=glibc.malloc.hugetlb=1"));
}

// Each process may resolve only the targets it calls: a BGP speaker its VR's RIB, the FEA and
// strata-bfd; strata-bfd the holders of its sessions (BGP speakers and RIBs), nothing else.
TEST(ProcessCatalogTest, RightsNameTheTargetsEachProcessCalls) {
  ProcessCatalog::Options o;
  o.bin_dir = "/opt/strata/bin";
  ProcessCatalog catalog(o);
  finder::v1::SetPermissionsRequest rights;
  const auto targets = [&] {
    return std::vector<std::string>(rights.allowed_targets().begin(),
                                    rights.allowed_targets().end());
  };
  catalog.For({"bgp", "bgp.red", 30, {}}, &rights);
  EXPECT_EQ(targets(), (std::vector<std::string>{"fea", "rib.red", "bfd"}));
  EXPECT_EQ(rights.owned_names(0), "bgp.red");
  catalog.For({"bfd", "bfd", 15, {}}, &rights);
  EXPECT_EQ(targets(), (std::vector<std::string>{"bgp", "rib"}));
  EXPECT_FALSE(rights.secret().empty());
}

TEST(ProcessCatalogTest, NoTunablesLeavesTheEnvironmentAlone) {
  ProcessCatalog::Options o;
  o.bin_dir = "/opt/strata/bin";
  ProcessCatalog catalog(o);
  const ProcessSpec bgp = catalog.For({"bgp", "bgp.red", 30, {}}, nullptr);
  EXPECT_EQ(bgp.nice, 0);
  for (const auto& e : bgp.env) EXPECT_NE(e.rfind("GLIBC_TUNABLES=", 0), 0u) << e;
}

TEST(ProcessCatalogTest, KernelOptionsReachTheFea) {
  ProcessCatalog::Options o;
  o.bin_dir = "/opt/strata/bin";
  o.await_config_ms = 0;
  EXPECT_EQ(ProcessCatalog(o).For({"fea", "fea", 10, {}}, nullptr).argv,
            (std::vector<std::string>{"/opt/strata/bin/strata-fea"}));
  o.fea_no_kernel = true;
  o.fea_nexthop_objects = false;
  EXPECT_EQ(ProcessCatalog(o).For({"fea", "fea", 10, {}}, nullptr).argv,
            (std::vector<std::string>{"/opt/strata/bin/strata-fea", "--no-kernel",
                                      "--no-nexthop-objects"}));
}

// The FEA and the RIBs wait for the rtrmgr's config_complete after each start (docs/restart.md).
TEST(ProcessCatalogTest, FeaAndRibsAwaitTheConfiguration) {
  ProcessCatalog::Options o;
  o.bin_dir = "/opt/strata/bin";
  o.await_config_ms = 45000;
  ProcessCatalog catalog(o);
  EXPECT_EQ(catalog.For({"fea", "fea", 10, {}}, nullptr).argv,
            (std::vector<std::string>{"/opt/strata/bin/strata-fea", "--await-config-ms", "45000"}));
  EXPECT_EQ(
      catalog.For({"rib", "rib.red", 20, {}}, nullptr).argv,
      (std::vector<std::string>{"/opt/strata/bin/strata-rib", "--vr", "red", "--await-config"}));
  EXPECT_EQ(catalog.For({"bgp", "bgp.red", 30, {}}, nullptr).argv,
            (std::vector<std::string>{"/opt/strata/bin/strata-bgp", "--vr", "red"}));
}

}  // namespace
}  // namespace strata::rtrmgr
