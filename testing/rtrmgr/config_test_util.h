// Helpers shared by the rtrmgr config tests: where the source tree is, the real templates,
// and parsing a config text that must be valid syntax.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "rtrmgr/config/config_parser.h"
#include "rtrmgr/config/template_tree.h"
#include "testing/common/source_dir.h"

namespace strata::rtrmgr::test_util {

using test_paths::SourceDir;

inline const TemplateTree& RealTemplates() {
  static const TemplateTree* tree = [] {
    auto t = TemplateTree::LoadDirectory(SourceDir() + "/rtrmgr/templates");
    if (!t.ok()) {
      ADD_FAILURE() << t.status().ToString();
      std::abort();
    }
    return new TemplateTree(std::move(*t));
  }();
  return *tree;
}

inline ConfigNode MustParse(const std::string& text) {
  auto tree = ConfigParser::Parse(text, "test.conf");
  EXPECT_TRUE(tree.ok()) << tree.status().ToString();
  return tree.ok() ? std::move(*tree) : ConfigNode();
}

}  // namespace strata::rtrmgr::test_util
