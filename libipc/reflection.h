// Reflection between XRL atoms and protobuf messages: how a text-form call becomes a request
// message, and a reply message becomes atoms again, for any method of any interface.
//
// The mapping is the one libipc/signature.h describes: scalars by type, the common address,
// prefix and MAC messages as ipv4/ipv6, ipv4net/ipv6net and mac atoms, repeated fields as lists,
// other messages flattened into dotted names ("route.prefix", "routes.0.prefix"; elements of a
// repeated message are given in index order). Types are checked strictly: a u32 field takes only
// a u32 atom, and an error names the argument and the type the method expects. Enums are txt
// atoms naming a value (ROUTE_TYPE_BLACKHOLE) or its short form, without the enum's prefix, in
// any case ("blackhole": what a configuration template substitutes).
#pragma once

#include <google/protobuf/message.h>

#include <vector>

#include "common/status.h"
#include "libipc/xrl_atom.h"

namespace strata::ipc {

// Sets the fields of `msg` named by `atoms`; fields not named keep their defaults.
Status AtomsToMessage(const std::vector<XrlAtom>& atoms, google::protobuf::Message& msg);

// Every field of `msg` as atoms: scalars always (defaults included), repeated fields as lists
// (empty ones too), message fields only when set.
std::vector<XrlAtom> MessageToAtoms(const google::protobuf::Message& msg);

}  // namespace strata::ipc
