#include "bfd/session_table.h"

#include <fmt/format.h>

#include <algorithm>

namespace strata::bfd {

std::string SessionKey::ToString() const {
  std::string s = fmt::format("{} {}", multihop ? "multihop" : "single-hop", peer.ToString());
  if (!local.is_zero()) s += " from " + local.ToString();
  if (!interface.empty()) s += " on " + interface;
  if (!vr.empty()) s += " vr " + vr;
  return s;
}

SessionTable::SessionTable(Clock& clock, Hooks hooks, uint32_t seed)
    : clock_(clock),
      hooks_(std::move(hooks)),
      rng_(seed),
      sweep_timer_(clock.make_timer([this] { Sweep(); })) {}

SessionParams SessionTable::Merge(const std::map<std::string, SessionParams>& clients) {
  SessionParams m = clients.begin()->second;
  for (const auto& [client, p] : clients) {
    m.desired_min_tx = std::min(m.desired_min_tx, p.desired_min_tx);
    m.required_min_rx = std::min(m.required_min_rx, p.required_min_rx);
    m.detect_mult = std::min(m.detect_mult, p.detect_mult);
    m.passive = m.passive && p.passive;
  }
  return m;
}

uint32_t SessionTable::NewDiscriminator() {
  for (;;) {
    const uint32_t d = static_cast<uint32_t>(rng_()) ^ (static_cast<uint32_t>(rng_()) << 16);
    if (d != 0 && !by_discr_.contains(d)) return d;
  }
}

const BfdSession& SessionTable::Add(const SessionKey& key, const std::string& client,
                                    const SessionParams& params) {
  auto [it, fresh] = entries_.try_emplace(key);
  Entry& e = it->second;
  e.clients[client] = params;
  const SessionParams merged = Merge(e.clients);
  if (fresh) {
    e.key = key;
    const uint32_t discr = NewDiscriminator();
    BfdSession::Hooks h;
    h.transmit = [this, &e](std::vector<uint8_t> bytes) {
      if (hooks_.transmit) hooks_.transmit(e.key, std::move(bytes));
    };
    h.state_changed = [this, &e](SessionState from, SessionState, Diag diag) {
      if (hooks_.state_changed) hooks_.state_changed(e.key, *e.session, from, diag);
    };
    e.session = std::make_unique<BfdSession>(clock_, discr, merged, std::move(h),
                                             static_cast<uint32_t>(rng_()));
    by_discr_[discr] = &e;
    return *e.session;
  }
  if (e.linger_until) {
    // A client came back while the session was going away: it stays.
    e.linger_until.reset();
    e.session->SetAdminDown(false);
  }
  if (!(merged == e.session->params())) e.session->SetParams(merged);
  return *e.session;
}

bool SessionTable::Remove(const SessionKey& key, const std::string& client) {
  auto it = entries_.find(key);
  if (it == entries_.end() || it->second.clients.erase(client) == 0) return false;
  Entry& e = it->second;
  if (e.clients.empty()) {
    Linger(e);
  } else {
    const SessionParams merged = Merge(e.clients);
    if (!(merged == e.session->params())) e.session->SetParams(merged);
  }
  return true;
}

size_t SessionTable::RemoveClient(const std::string& client) {
  std::vector<SessionKey> held;
  for (const auto& [key, e] : entries_) {
    if (e.clients.contains(client)) held.push_back(key);
  }
  for (const SessionKey& k : held) Remove(k, client);
  return held.size();
}

void SessionTable::Linger(Entry& e) {
  e.session->SetAdminDown(true);
  const auto wait =
      std::max<microseconds>({e.session->detection_time(), e.session->tx_interval() * 3, kSlowTx});
  e.linger_until = clock_.now() + wait;
  Sweep();
}

void SessionTable::Sweep() {
  const Clock::TimePoint now = clock_.now();
  std::optional<Clock::TimePoint> next;
  for (auto it = entries_.begin(); it != entries_.end();) {
    const auto& until = it->second.linger_until;
    if (until && *until <= now) {
      by_discr_.erase(it->second.session->local_discr());
      const SessionKey key = it->first;
      it = entries_.erase(it);
      if (hooks_.removed) hooks_.removed(key);
      continue;
    }
    if (until && (!next || *until < *next)) next = until;
    ++it;
  }
  if (next) {
    sweep_timer_->start_at(*next);
  } else {
    sweep_timer_->stop();
  }
}

bool SessionTable::SetAdminDown(const SessionKey& key, bool down) {
  auto it = entries_.find(key);
  if (it == entries_.end() || it->second.linger_until) return false;
  it->second.session->SetAdminDown(down);
  return true;
}

const SessionTable::Entry* SessionTable::Find(const SessionKey& key) const {
  auto it = entries_.find(key);
  return it == entries_.end() ? nullptr : &it->second;
}

SessionTable::Entry* SessionTable::Match(const ReceivedPacket& r, const ControlPacket& p) {
  if (p.your_discriminator != 0) {
    auto it = by_discr_.find(p.your_discriminator);
    if (it == by_discr_.end()) {
      ++drops_.no_session;
      return nullptr;
    }
    Entry* e = it->second;
    if (e->key.peer != r.source || e->key.multihop != r.multihop || e->key.vr != r.vr) {
      ++drops_.wrong_source;
      return nullptr;
    }
    return e;
  }
  // The peer does not know our discriminator yet: the addresses (and the link) choose.
  for (auto& [key, e] : entries_) {
    if (key.vr != r.vr || key.peer != r.source || key.multihop != r.multihop) continue;
    if (!key.local.is_zero() && key.local != r.destination) continue;
    if (!key.multihop && !key.interface.empty() && !r.interface.empty() &&
        key.interface != r.interface) {
      continue;
    }
    return &e;
  }
  ++drops_.no_session;
  return nullptr;
}

void SessionTable::Receive(const ReceivedPacket& r) {
  auto p = Decode(r.bytes);
  if (!p.ok()) {
    ++drops_.malformed;
    return;
  }
  if (!r.multihop && r.ttl != 255) {
    ++drops_.bad_ttl;
    return;
  }
  Entry* e = Match(r, *p);
  if (e == nullptr) return;
  e->session->Receive(*p, r.bytes);
}

}  // namespace strata::bfd
