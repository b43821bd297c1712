// strata-config-doc TEMPLATE_DIR: prints the configuration reference (Markdown) rendered from
// the templates; docs/config-reference.md is its output for rtrmgr/templates.
#include <iostream>
#include <string>

#include "common/version.h"
#include "rtrmgr/config/reference_doc.h"
#include "rtrmgr/config/template_tree.h"

int main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]) == "--version") {
    std::cout << strata::VersionString("strata-config-doc") << "\n";
    return 0;
  }
  if (argc != 2) {
    std::cerr << "usage: strata-config-doc TEMPLATE_DIR\n";
    return 2;
  }
  auto templates = strata::rtrmgr::TemplateTree::LoadDirectory(argv[1]);
  if (!templates.ok()) {
    std::cerr << templates.status().message() << "\n";
    return 1;
  }
  std::cout << strata::rtrmgr::ReferenceDoc::Render(*templates);
  return 0;
}
