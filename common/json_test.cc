#include "common/json.h"

#include <gtest/gtest.h>

namespace strata {
namespace {

using nlohmann::json;

// In every build, NDEBUG or not, a missing key read through a const json stops the process
// with a message instead of returning whatever lies past the end of the object.
TEST(JsonDeathTest, MissingKeyOfAConstObjectStopsTheProcess) {
  const json j = json::parse(R"({"message":{"eor":{}}})");
  EXPECT_DEATH((void)j["message"]["update"], "nlohmann::json precondition failed");
}

TEST(JsonTest, TheCheckedWaysToReadAMissingKeyStillWork) {
  const json j = json::parse(R"({"message":{"eor":{}}})");
  EXPECT_FALSE(j["message"].contains("update"));
  EXPECT_EQ(j.value("/message/update"_json_pointer, json::object()), json::object());
  EXPECT_EQ(j["message"].value("update", 7), 7);
}

}  // namespace
}  // namespace strata
