// XRL text harness: the call text that strata-call, strata-sh scripts and the Finder parse.
// Input: one selector byte, then text. Selector 0: a whole XRL; 1: an argument list; 2: one
// atom. Property beyond "no crash, no leak, no UB": whatever parses prints to text that parses
// back to the same value (decode -> encode -> decode).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/fuzz_check.h"
#include "libipc/xrl.h"
#include "libipc/xrl_atom.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace strata::ipc;
  if (size < 1) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  switch (data[0] % 3) {
    case 0: {
      auto x = Xrl::Parse(text);
      if (!x.ok()) return 0;
      const std::string printed = x->ToString();
      auto again = Xrl::Parse(printed);
      FUZZ_CHECK(again.ok(), printed + ": " + again.status().ToString());
      FUZZ_CHECK(*again == *x, printed + " re-parses as " + again->ToString());
      break;
    }
    case 1: {
      auto atoms = ParseAtoms(text);
      if (!atoms.ok()) return 0;
      const std::string printed = AtomsToString(*atoms);
      auto again = ParseAtoms(printed);
      FUZZ_CHECK(again.ok(), printed + ": " + again.status().ToString());
      FUZZ_CHECK(*again == *atoms, printed + " re-parses as " + AtomsToString(*again));
      break;
    }
    default: {
      auto atom = XrlAtom::Parse(text);
      if (!atom.ok()) return 0;
      const std::string printed = atom->ToString();
      auto again = XrlAtom::Parse(printed);
      FUZZ_CHECK(again.ok(), printed + ": " + again.status().ToString());
      FUZZ_CHECK(*again == *atom, printed + " re-parses as " + again->ToString());
      break;
    }
  }
  return 0;
}
