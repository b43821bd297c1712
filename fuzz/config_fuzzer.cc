// Configuration harness: what an operator writes (a file for --check, load, boot) and types
// (strata-sh's set and delete). Input: configuration text, optionally followed by a NUL byte and
// edit lines ("set WORDS", "delete WORDS", one per line). The text is parsed; the edits are
// applied with the shell's editor; the result is validated against the real templates.
// Properties beyond "no crash, no leak, no UB, no hang":
// - Parse(Print(tree)) is the same tree, and printing it again gives the same text;
// - validation gives the same errors for the printed text as for the tree it came from, apart
//   from their positions (nodes the editor made have none).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "fuzz/fuzz_check.h"
#include "rtrmgr/config/config_editor.h"
#include "rtrmgr/config/config_parser.h"
#include "rtrmgr/config/config_printer.h"
#include "rtrmgr/config/config_validator.h"
#include "rtrmgr/config/template_tree.h"

namespace strata::fuzz {
namespace {

using namespace strata::rtrmgr;

const TemplateTree& Templates() {
  static const TemplateTree* tree = [] {
    const char* dir = std::getenv("STRATA_TEMPLATE_DIR");
    auto t = TemplateTree::LoadDirectory(dir ? dir : STRATA_FUZZ_TEMPLATE_DIR);
    if (!t.ok()) Fail(__FILE__, __LINE__, "templates", t.status().ToString());
    return new TemplateTree(std::move(*t));
  }();
  return *tree;
}

// `text` without the places it names ("duplicate 'x' (first at FILE:LINE:COL)"): the printed
// text has other lines and columns. A scan, not std::regex: libstdc++'s regex backtracks
// recursively and takes seconds on the long reasons a fuzzer makes.
std::string WithoutPlaces(const std::string& text) {
  const auto digits = [&](size_t i) {
    size_t j = i;
    while (j < text.size() && text[j] >= '0' && text[j] <= '9') ++j;
    return j;
  };
  const auto in_name = [](char c) { return c != ' ' && c != '(' && c != ')' && c != '\n'; };
  std::string out;
  size_t copied = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != ':') continue;
    const size_t line_end = digits(i + 1);
    if (line_end == i + 1 || line_end >= text.size() || text[line_end] != ':') continue;
    const size_t col_end = digits(line_end + 1);
    if (col_end == line_end + 1) continue;
    size_t begin = i;
    while (begin > copied && in_name(text[begin - 1])) --begin;
    out.append(text, copied, begin - copied);
    out += "PLACE";
    copied = col_end;
    i = col_end - 1;
  }
  out.append(text, copied, std::string::npos);
  return out;
}

std::string Reasons(const std::vector<ConfigError>& errors) {
  std::string out;
  for (const ConfigError& e : errors) out += WithoutPlaces(e.reason) + "\n";
  return out;
}

void ApplyEdits(ConfigNode& root, std::string_view edits) {
  const ConfigEditor editor(Templates());
  while (!edits.empty()) {
    const size_t nl = edits.find('\n');
    const std::string_view line = edits.substr(0, nl);
    edits = nl == std::string_view::npos ? std::string_view() : edits.substr(nl + 1);
    auto words = ConfigEditor::SplitWords(line);
    if (!words.ok() || words->size() < 2) continue;
    const std::string verb = words->front();
    words->erase(words->begin());
    Status s;
    if (verb == "set") s = editor.Set(root, *words);
    if (verb == "delete") s = editor.Delete(root, *words);
    if (!s.ok()) FUZZ_CHECK(!s.message().empty(), "an edit error without a reason");
  }
}

}  // namespace
}  // namespace strata::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace strata::fuzz;
  using namespace strata::rtrmgr;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t nul = input.find('\0');
  auto tree = ConfigParser::Parse(input.substr(0, nul), "fuzz.conf");
  if (!tree.ok()) {
    FUZZ_CHECK(!tree.status().message().empty(), "a parse error without a reason");
    return 0;
  }
  if (nul != std::string_view::npos) ApplyEdits(*tree, input.substr(nul + 1));
  const std::string printed = ConfigPrinter::Print(*tree);
  auto again = ConfigParser::Parse(printed, "printed.conf");
  FUZZ_CHECK(again.ok(), printed + "\ndoes not parse: " + again.status().ToString());
  FUZZ_CHECK(*again == *tree, printed + "\nparses to another tree");
  FUZZ_CHECK(ConfigPrinter::Print(*again) == printed, printed + "\nprints differently");
  const ConfigValidator validator(Templates());
  const std::string first = Reasons(validator.Validate(*tree));
  const std::string second = Reasons(validator.Validate(*again));
  FUZZ_CHECK(first == second, printed + "\nvalidates as\n" + first + "but printed as\n" + second);
  return 0;
}
