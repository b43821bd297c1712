#include "libipc/reflection.h"

#include <cctype>
#include <charconv>
#include <string>

#include "libipc/signature.h"

namespace strata::ipc {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

namespace {

// A value by its name (ROUTE_TYPE_BLACKHOLE), or by its short form: the name without the enum's
// prefix, in any case, '-' for '_' ("blackhole", "unreachable"), as a config writes it.
const google::protobuf::EnumValueDescriptor* FindEnumValue(
    const google::protobuf::EnumDescriptor& e, const std::string& text) {
  if (const auto* ev = e.FindValueByName(text)) return ev;
  std::string prefix;  // RouteType -> ROUTE_TYPE_
  for (char c : e.name()) {
    if (std::isupper(static_cast<unsigned char>(c)) && !prefix.empty()) prefix += '_';
    prefix += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  prefix += '_';
  std::string upper;
  for (char c : text) {
    upper += c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return e.FindValueByName(prefix + upper);
}

// The atom type a scalar field takes.
AtomType ScalarAtomType(const FieldDescriptor* f) {
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32:
      return AtomType::kI32;
    case FieldDescriptor::CPPTYPE_UINT32:
      return AtomType::kU32;
    case FieldDescriptor::CPPTYPE_INT64:
      return AtomType::kI64;
    case FieldDescriptor::CPPTYPE_UINT64:
      return AtomType::kU64;
    case FieldDescriptor::CPPTYPE_BOOL:
      return AtomType::kBool;
    case FieldDescriptor::CPPTYPE_STRING:
      return f->type() == FieldDescriptor::TYPE_BYTES ? AtomType::kBinary : AtomType::kTxt;
    default:
      return AtomType::kTxt;  // enums, by value name
  }
}

bool AtomFits(const FieldDescriptor* f, AtomType t) {
  switch (KindOf(f)) {
    case FieldKind::kAddress:
      return t == AtomType::kIpv4 || t == AtomType::kIpv6;
    case FieldKind::kPrefix:
      return t == AtomType::kIpv4Net || t == AtomType::kIpv6Net;
    case FieldKind::kMac:
      return t == AtomType::kMac;
    case FieldKind::kMessage:
      return false;
    case FieldKind::kScalar:
      break;
  }
  return ScalarAtomType(f) == t;
}

void FillCommon(Message& m, const AtomValue& v) {
  const Descriptor* d = m.GetDescriptor();
  const Reflection* r = m.GetReflection();
  const FieldDescriptor* addr = d->FindFieldByName("addr");
  if (const auto* ip = std::get_if<IpAddr>(&v)) {
    auto b = ip->bytes();
    r->SetString(&m, addr, std::string(b.begin(), b.end()));
  } else if (const auto* p = std::get_if<IpPrefix>(&v)) {
    auto b = p->addr().bytes();
    r->SetString(&m, addr, std::string(b.begin(), b.end()));
    r->SetUInt32(&m, d->FindFieldByName("len"), static_cast<uint32_t>(p->len()));
  } else if (const auto* mac = std::get_if<MacAddr>(&v)) {
    auto b = mac->bytes();
    r->SetString(&m, addr, std::string(b.begin(), b.end()));
  }
}

Status SetScalar(Message& m, const FieldDescriptor* f, const AtomValue& v,
                 const std::string& name) {
  const Reflection* r = m.GetReflection();
  const bool rep = f->is_repeated();
  if (KindOf(f) != FieldKind::kScalar) {
    Message* sub = rep ? r->AddMessage(&m, f) : r->MutableMessage(&m, f);
    FillCommon(*sub, v);
    return Status();
  }
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32:
      rep ? r->AddInt32(&m, f, std::get<int32_t>(v)) : r->SetInt32(&m, f, std::get<int32_t>(v));
      break;
    case FieldDescriptor::CPPTYPE_UINT32:
      rep ? r->AddUInt32(&m, f, std::get<uint32_t>(v)) : r->SetUInt32(&m, f, std::get<uint32_t>(v));
      break;
    case FieldDescriptor::CPPTYPE_INT64:
      rep ? r->AddInt64(&m, f, std::get<int64_t>(v)) : r->SetInt64(&m, f, std::get<int64_t>(v));
      break;
    case FieldDescriptor::CPPTYPE_UINT64:
      rep ? r->AddUInt64(&m, f, std::get<uint64_t>(v)) : r->SetUInt64(&m, f, std::get<uint64_t>(v));
      break;
    case FieldDescriptor::CPPTYPE_BOOL:
      rep ? r->AddBool(&m, f, std::get<bool>(v)) : r->SetBool(&m, f, std::get<bool>(v));
      break;
    case FieldDescriptor::CPPTYPE_STRING: {
      std::string s;
      if (const auto* bin = std::get_if<std::vector<uint8_t>>(&v)) {
        s.assign(bin->begin(), bin->end());
      } else {
        s = std::get<std::string>(v);
      }
      rep ? r->AddString(&m, f, std::move(s)) : r->SetString(&m, f, std::move(s));
      break;
    }
    case FieldDescriptor::CPPTYPE_ENUM: {
      const auto& text = std::get<std::string>(v);
      const auto* ev = FindEnumValue(*f->enum_type(), text);
      if (ev == nullptr) {
        std::string names;
        for (int i = 0; i < f->enum_type()->value_count(); ++i) {
          names += (i ? ", " : "") + f->enum_type()->value(i)->name();
        }
        return InvalidArgument("argument '" + name + "': '" + text + "' is not one of " + names);
      }
      rep ? r->AddEnum(&m, f, ev) : r->SetEnum(&m, f, ev);
      break;
    }
    default:
      return InvalidArgument("argument '" + name + "' has a type XRLs cannot carry");
  }
  return Status();
}

std::string Expected(const FieldDescriptor* f) {
  return f->is_repeated() ? "list<" + ElementTypeName(f) + ">" : ElementTypeName(f);
}

Status SetAtom(Message& msg, const XrlAtom& atom, std::string_view path, int depth) {
  const std::string& name = atom.name();
  if (depth > 16) return InvalidArgument("argument '" + name + "' nests too deep");
  const auto dot = path.find('.');
  const std::string head(path.substr(0, dot));
  const Descriptor* d = msg.GetDescriptor();
  const FieldDescriptor* f = d->FindFieldByName(head);
  if (f == nullptr) {
    return InvalidArgument("no argument '" + name + "' (expected " + MessageSignature(d) + ")");
  }
  const Reflection* r = msg.GetReflection();
  if (KindOf(f) == FieldKind::kMessage) {
    if (dot == std::string_view::npos) {
      return InvalidArgument("argument '" + name + "' is a structure: give its fields as '" + name +
                             (f->is_repeated() ? ".0." : ".") + "FIELD'");
    }
    std::string_view rest = path.substr(dot + 1);
    if (!f->is_repeated()) return SetAtom(*r->MutableMessage(&msg, f), atom, rest, depth + 1);
    const auto dot2 = rest.find('.');
    const std::string_view index_text = rest.substr(0, dot2);
    size_t index = 0;
    auto [p, ec] = std::from_chars(index_text.data(), index_text.data() + index_text.size(), index);
    if (ec != std::errc() || p != index_text.data() + index_text.size() ||
        dot2 == std::string_view::npos) {
      return InvalidArgument("argument '" + name + "': expected '" + head + ".INDEX.FIELD'");
    }
    const size_t size = static_cast<size_t>(r->FieldSize(msg, f));
    if (index > size || index > 1'000'000) {
      return InvalidArgument("argument '" + name + "': element " + std::to_string(index) +
                             " given before element " + std::to_string(size));
    }
    Message* elem = index == size ? r->AddMessage(&msg, f)
                                  : r->MutableRepeatedMessage(&msg, f, static_cast<int>(index));
    return SetAtom(*elem, atom, rest.substr(dot2 + 1), depth + 1);
  }
  if (dot != std::string_view::npos) {
    return InvalidArgument("argument '" + name + "': '" + head + "' has no fields");
  }
  if (f->is_repeated() != atom.is_list() || !AtomFits(f, atom.type())) {
    return InvalidArgument("argument '" + name + "' is " + Expected(f) + ", not " +
                           atom.TypeName());
  }
  if (!atom.is_list()) {
    if (f->is_repeated()) r->ClearField(&msg, f);
    return SetScalar(msg, f, atom.value(), name);
  }
  r->ClearField(&msg, f);
  for (const auto& v : atom.elements()) {
    if (auto s = SetScalar(msg, f, v, name); !s.ok()) return s;
  }
  return Status();
}

// Reads a common address / prefix / MAC message back into an atom value.
std::optional<std::pair<AtomType, AtomValue>> CommonValue(const FieldDescriptor* f,
                                                          const Message& m) {
  const Descriptor* d = m.GetDescriptor();
  const Reflection* r = m.GetReflection();
  std::string scratch;
  const std::string& bytes = r->GetStringReference(m, d->FindFieldByName("addr"), &scratch);
  std::span<const uint8_t> span(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  switch (KindOf(f)) {
    case FieldKind::kAddress: {
      auto a = IpAddr::FromBytes(span);
      if (!a.ok()) return std::nullopt;
      return std::make_pair(a->is_v4() ? AtomType::kIpv4 : AtomType::kIpv6, AtomValue(*a));
    }
    case FieldKind::kPrefix: {
      auto a = IpAddr::FromBytes(span);
      if (!a.ok()) return std::nullopt;
      auto p = IpPrefix::Make(*a, static_cast<int>(r->GetUInt32(m, d->FindFieldByName("len"))));
      if (!p.ok()) return std::nullopt;
      return std::make_pair(a->is_v4() ? AtomType::kIpv4Net : AtomType::kIpv6Net, AtomValue(*p));
    }
    case FieldKind::kMac: {
      auto mac = MacAddr::FromBytes(span);
      if (!mac.ok()) return std::nullopt;
      return std::make_pair(AtomType::kMac, AtomValue(*mac));
    }
    default:
      return std::nullopt;
  }
}

AtomValue ScalarValue(const Message& m, const FieldDescriptor* f, int i) {
  const Reflection* r = m.GetReflection();
  const bool rep = i >= 0;
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32:
      return rep ? r->GetRepeatedInt32(m, f, i) : r->GetInt32(m, f);
    case FieldDescriptor::CPPTYPE_UINT32:
      return rep ? r->GetRepeatedUInt32(m, f, i) : r->GetUInt32(m, f);
    case FieldDescriptor::CPPTYPE_INT64:
      return rep ? r->GetRepeatedInt64(m, f, i) : r->GetInt64(m, f);
    case FieldDescriptor::CPPTYPE_UINT64:
      return rep ? r->GetRepeatedUInt64(m, f, i) : r->GetUInt64(m, f);
    case FieldDescriptor::CPPTYPE_BOOL:
      return rep ? r->GetRepeatedBool(m, f, i) : r->GetBool(m, f);
    case FieldDescriptor::CPPTYPE_STRING: {
      std::string s = rep ? r->GetRepeatedString(m, f, i) : r->GetString(m, f);
      if (f->type() == FieldDescriptor::TYPE_BYTES) return std::vector<uint8_t>(s.begin(), s.end());
      return s;
    }
    case FieldDescriptor::CPPTYPE_ENUM:
      return std::string((rep ? r->GetRepeatedEnum(m, f, i) : r->GetEnum(m, f))->name());
    default:
      return std::string();
  }
}

void Collect(const Message& m, const std::string& prefix, std::vector<XrlAtom>& out, int depth) {
  if (depth > 16) return;
  const Descriptor* d = m.GetDescriptor();
  const Reflection* r = m.GetReflection();
  for (int i = 0; i < d->field_count(); ++i) {
    const FieldDescriptor* f = d->field(i);
    const std::string name = prefix + f->name();
    const FieldKind kind = KindOf(f);
    if (kind == FieldKind::kMessage) {
      if (f->is_repeated()) {
        for (int j = 0; j < r->FieldSize(m, f); ++j) {
          Collect(r->GetRepeatedMessage(m, f, j), name + "." + std::to_string(j) + ".", out,
                  depth + 1);
        }
      } else if (r->HasField(m, f)) {
        Collect(r->GetMessage(m, f), name + ".", out, depth + 1);
      }
      continue;
    }
    if (kind != FieldKind::kScalar) {
      if (f->is_repeated()) {
        std::vector<AtomValue> elems;
        std::optional<AtomType> type;
        for (int j = 0; j < r->FieldSize(m, f); ++j) {
          auto v = CommonValue(f, r->GetRepeatedMessage(m, f, j));
          if (!v || (type && *type != v->first)) continue;  // mixed families cannot be one list
          type = v->first;
          elems.push_back(std::move(v->second));
        }
        const AtomType fallback = kind == FieldKind::kAddress  ? AtomType::kIpv4
                                  : kind == FieldKind::kPrefix ? AtomType::kIpv4Net
                                                               : AtomType::kMac;
        out.push_back(XrlAtom::List(name, type.value_or(fallback), std::move(elems)));
      } else if (r->HasField(m, f)) {
        if (auto v = CommonValue(f, r->GetMessage(m, f)))
          out.emplace_back(name, v->first, v->second);
      }
      continue;
    }
    const AtomType t = ScalarAtomType(f);
    if (f->is_repeated()) {
      std::vector<AtomValue> elems;
      for (int j = 0; j < r->FieldSize(m, f); ++j) elems.push_back(ScalarValue(m, f, j));
      out.push_back(XrlAtom::List(name, t, std::move(elems)));
    } else if (!f->has_presence() || r->HasField(m, f)) {
      // An unset `optional` field is left out, as its absence means something ("no MED").
      out.emplace_back(name, t, ScalarValue(m, f, -1));
    }
  }
}

}  // namespace

Status AtomsToMessage(const std::vector<XrlAtom>& atoms, Message& msg) {
  for (const auto& a : atoms) {
    if (auto s = SetAtom(msg, a, a.name(), 0); !s.ok()) return s;
  }
  return Status();
}

std::vector<XrlAtom> MessageToAtoms(const Message& msg) {
  std::vector<XrlAtom> out;
  Collect(msg, "", out, 0);
  return out;
}

}  // namespace strata::ipc
