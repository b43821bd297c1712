#include "testing/rib/fake_fea.h"

#include "rib/process/proto_convert.h"

namespace strata::rib {

namespace fpb = strata::fea::v1;

void FakeFea::send_interface(const fpb::Interface& ifc, bool removed) {
  if (removed) {
    interfaces_.erase(ifc.name());
  } else {
    interfaces_[ifc.name()] = ifc;
  }
  for (const auto& [target, vr] : watchers_) {
    fea_client::v1::InterfaceEventRequest ev;
    ev.set_change(removed ? fea_client::v1::INTERFACE_CHANGE_REMOVED
                          : fea_client::v1::INTERFACE_CHANGE_UPDATED);
    *ev.mutable_interface() = ifc;
    fea_client::v1::FeaClientClient(router_, target)
        .InterfaceEvent(ev, [](const Status&, const fea_client::v1::InterfaceEventReply&) {});
  }
}

void FakeFea::AddVr(const fpb::AddVrRequest& r, ipc::Responder<fpb::AddVrReply> reply) {
  calls.push_back("add_vr");
  add_vrs.push_back(r.vr());
  fpb::AddVrReply out;
  out.set_held_routes(routes[r.vr()].size());
  reply(out);
}

void FakeFea::ConfigComplete(const fpb::ConfigCompleteRequest&,
                             ipc::Responder<fpb::ConfigCompleteReply> reply) {
  complete_config();
  reply(fpb::ConfigCompleteReply());
}

void FakeFea::WaitConfig(const fpb::WaitConfigRequest&,
                         ipc::Responder<fpb::WaitConfigReply> reply) {
  if (config_complete) return reply(fpb::WaitConfigReply());
  config_waiters_.push_back(std::move(reply));
}

void FakeFea::complete_config() {
  config_complete = true;
  auto waiters = std::move(config_waiters_);
  config_waiters_.clear();
  for (auto& w : waiters) w(fpb::WaitConfigReply());
}

void FakeFea::DeleteVr(const fpb::DeleteVrRequest&, ipc::Responder<fpb::DeleteVrReply> reply) {
  reply.Fail(Unimplemented("fake"));
}
void FakeFea::ListVrs(const fpb::ListVrsRequest&, ipc::Responder<fpb::ListVrsReply> reply) {
  reply.Fail(Unimplemented("fake"));
}
void FakeFea::SetVrTable(const fpb::SetVrTableRequest&,
                         ipc::Responder<fpb::SetVrTableReply> reply) {
  reply.Fail(Unimplemented("fake"));
}
void FakeFea::ListInterfaces(const fpb::ListInterfacesRequest& r,
                             ipc::Responder<fpb::ListInterfacesReply> reply) {
  ++list_interfaces_calls;
  fpb::ListInterfacesReply out;
  for (const auto& [name, ifc] : interfaces_) {
    if (r.vr().empty() || ifc.vr() == r.vr()) *out.add_interfaces() = ifc;
  }
  reply(out);
}
void FakeFea::BindInterface(const fpb::BindInterfaceRequest&,
                            ipc::Responder<fpb::BindInterfaceReply> reply) {
  reply.Fail(Unimplemented("fake"));
}
void FakeFea::UnbindInterface(const fpb::UnbindInterfaceRequest&,
                              ipc::Responder<fpb::UnbindInterfaceReply> reply) {
  reply.Fail(Unimplemented("fake"));
}

void FakeFea::WatchInterfaces(const fpb::WatchInterfacesRequest& r,
                              ipc::Responder<fpb::WatchInterfacesReply> reply) {
  watchers_.emplace_back(r.watcher(), r.vr());
  reply(fpb::WatchInterfacesReply());
  for (const auto& [name, ifc] : interfaces_) {
    fea_client::v1::InterfaceEventRequest ev;
    ev.set_change(fea_client::v1::INTERFACE_CHANGE_UPDATED);
    *ev.mutable_interface() = ifc;
    fea_client::v1::FeaClientClient(router_, r.watcher())
        .InterfaceEvent(ev, [](const Status&, const fea_client::v1::InterfaceEventReply&) {});
  }
}

void FakeFea::UnwatchInterfaces(const fpb::WatchInterfacesRequest&,
                                ipc::Responder<fpb::WatchInterfacesReply> reply) {
  reply.Fail(Unimplemented("fake"));
}

std::string FakeFea::refusal(const std::string& vr, const fpb::RouteChange& c) const {
  if (!refuse_unreachable || c.op() == fpb::OP_DELETE) return "";
  for (const fpb::NextHop& nh : c.nexthops()) {
    if (!nh.interface().empty()) {
      auto it = interfaces_.find(nh.interface());
      if (it == interfaces_.end() || it->second.vr() != vr) {
        return "interface '" + nh.interface() + "' is not in VR '" + vr + "'";
      }
      continue;
    }
    if (!nh.has_address()) continue;
    auto addr = ipc::AddrFromProto(nh.address(), "address");
    if (!addr.ok()) return addr.status().message();
    bool connected = false;
    for (const auto& [name, ifc] : interfaces_) {
      if (ifc.vr() != vr || !ifc.up()) continue;
      for (const auto& a : ifc.addresses()) {
        auto subnet = ipc::AddrFromProto(a.address(), "address");
        if (!subnet.ok()) continue;
        auto net = IpPrefix::Make(*subnet, static_cast<int>(a.prefix().len()));
        if (net.ok() && net->Contains(*addr)) connected = true;
      }
    }
    if (!connected) return addr->ToString() + " is on no interface of VR '" + vr + "'";
  }
  return "";
}

void FakeFea::ApplyRoutes(const fpb::ApplyRoutesRequest& r,
                          ipc::Responder<fpb::ApplyRoutesReply> reply) {
  ++apply_calls;
  calls.push_back("apply_routes");
  fpb::ApplyRoutesReply refusals;
  std::string first;
  for (int i = 0; i < r.changes_size(); ++i) {
    const std::string why = refusal(r.vr(), r.changes(i));
    if (why.empty()) continue;
    if (first.empty()) first = "changes[" + std::to_string(i) + "]: " + why;
    auto* rc = refusals.add_refused();
    rc->set_index(static_cast<uint32_t>(i));
    *rc->mutable_prefix() = r.changes(i).prefix();
    rc->set_reason(why);
    if (auto p = ipc::PrefixFromProto(r.changes(i).prefix(), "prefix"); p.ok())
      refused.push_back(*p);
  }
  if (!first.empty()) {  // whole or nothing, like the FEA
    ++refused_batches;
    if (!r.report_refused()) return reply.Fail(InvalidArgument(first));
    return reply(refusals);
  }
  auto& table = resync_.contains(r.vr()) ? resync_[r.vr()] : routes[r.vr()];
  for (const fpb::RouteChange& c : r.changes()) {
    auto prefix = ipc::PrefixFromProto(c.prefix(), "prefix");
    if (!prefix.ok()) return reply.Fail(prefix.status());
    ++changes;
    const bool present = table.contains(*prefix);
    if (c.op() == fpb::OP_DELETE) {
      if (!present) ++bad_changes;
      table.erase(*prefix);
    } else {
      if ((c.op() == fpb::OP_ADD) == present) ++bad_changes;
      table[*prefix] = c;
    }
  }
  fpb::ApplyRoutesReply out;
  out.set_applied(static_cast<uint32_t>(r.changes_size()));
  reply(out);
}

void FakeFea::BeginResync(const fpb::BeginResyncRequest& r,
                          ipc::Responder<fpb::BeginResyncReply> reply) {
  ++begin_resyncs;
  calls.push_back("begin_resync");
  begin_resync_holds.push_back(r.hold_ms());
  resync_[r.vr()].clear();
  reply(fpb::BeginResyncReply());
}

void FakeFea::EndResync(const fpb::EndResyncRequest& r, ipc::Responder<fpb::EndResyncReply> reply) {
  ++end_resyncs;
  calls.push_back("end_resync");
  routes[r.vr()] = std::move(resync_[r.vr()]);
  resync_.erase(r.vr());
  reply(fpb::EndResyncReply());
}

void FakeFea::Lookup(const fpb::LookupRequest&, ipc::Responder<fpb::LookupReply> reply) {
  reply.Fail(Unimplemented("fake"));
}
void FakeFea::ListRoutes(const fpb::ListRoutesRequest&,
                         ipc::Responder<fpb::ListRoutesReply> reply) {
  reply.Fail(Unimplemented("fake"));
}
void FakeFea::GetStats(const fpb::GetStatsRequest&, ipc::Responder<fpb::GetStatsReply> reply) {
  reply.Fail(Unimplemented("fake"));
}

}  // namespace strata::rib
