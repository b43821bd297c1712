#include "bgp/rpki/rtr_client.h"

#include <rtrlib/rtrlib.h>

#include <map>
#include <mutex>
#include <utility>

namespace strata::bgp {

// What RTRlib's threads and the io_context thread share (see the header).
struct RtrClient::Shared {
  std::mutex mu;
  uint64_t generation = 0;  // bumped by Stop(): queued items of older sessions are dropped
  struct Item {
    uint64_t generation = 0;
    bool is_state = false;
    VrpUpdate update;
    std::string state;  // is_state: the socket's new state
    bool group_active = false;
    uint32_t session_id = 0;
    uint32_t serial = 0;
    uint32_t version = 0;
  };
  std::vector<Item> queue;
  std::map<const rtr_socket*, size_t> cache_of;  // written before the sessions start
  std::function<void()> post_drain;              // posts one drain onto the io_context
};

// RTRlib's objects for one configuration: they must stay put while its threads run.
struct RtrClient::Sessions {
  struct Cache {
    std::string host;
    std::string port;
    tr_tcp_config tcp{};
    tr_socket transport{};
    rtr_socket rtr{};
  };
  std::vector<std::unique_ptr<Cache>> caches;
  std::vector<std::vector<rtr_socket*>> group_sockets;
  std::vector<rtr_mgr_group> groups;
  rtr_mgr_config* config = nullptr;
};

namespace {

// RTRlib's pfx-update callback carries no user pointer: the pfx_table (one per rtr_mgr_config)
// names the client.
std::mutex registry_mu;
std::map<const pfx_table*, std::weak_ptr<RtrClient::Shared>>& Registry() {
  static auto* registry = new std::map<const pfx_table*, std::weak_ptr<RtrClient::Shared>>();
  return *registry;
}

std::optional<IpPrefix> PrefixOf(const lrtr_ip_addr& addr, uint8_t len) {
  char text[INET6_ADDRSTRLEN + 1] = {};
  if (lrtr_ip_addr_to_str(&addr, text, sizeof(text)) != 0) return std::nullopt;
  auto a = IpAddr::Parse(text);
  if (!a.ok()) return std::nullopt;
  auto p = IpPrefix::MakeStrict(*a, len);
  if (!p.ok()) return std::nullopt;
  return *p;
}

}  // namespace

Status ValidateRtrTimers(const RtrTimers& t) {
  if (t.refresh_s < 1 || t.refresh_s > 86400) return InvalidArgument("refresh: 1..86400 s");
  if (t.retry_s < 1 || t.retry_s > 7200) return InvalidArgument("retry: 1..7200 s");
  if (t.expire_s < 600 || t.expire_s > 172800) return InvalidArgument("expire: 600..172800 s");
  if (t.expire_s <= t.refresh_s || t.expire_s <= t.retry_s) {
    return InvalidArgument("expire: must be longer than refresh and retry");
  }
  return Status::Ok();
}

RtrClient::RtrClient(boost::asio::io_context& io, UpdateFn on_update)
    : io_(io), on_update_(std::move(on_update)), shared_(std::make_shared<Shared>()) {}

RtrClient::~RtrClient() { Stop(); }

void RtrClient::Stop() {
  if (sessions_) {
    rtr_mgr_config* config = sessions_->config;
    if (config) {
      {
        std::lock_guard lock(registry_mu);
        Registry().erase(config->pfx_table);
      }
      rtr_mgr_stop(config);  // joins the socket threads
      rtr_mgr_free(config);
    }
    sessions_.reset();
  }
  std::lock_guard lock(shared_->mu);
  ++shared_->generation;
  shared_->queue.clear();
  shared_->cache_of.clear();
}

Status RtrClient::Configure(std::vector<RtrCacheConfig> caches, RtrTimers timers) {
  if (Status s = ValidateRtrTimers(timers); !s.ok()) return s;
  for (size_t i = 0; i < caches.size(); ++i) {
    if (caches[i].address.empty())
      return InvalidArgument("cache " + std::to_string(i) + ": no address");
    if (caches[i].port == 0) return InvalidArgument("cache " + caches[i].address + ": no port");
  }
  Stop();
  timers_ = timers;
  status_.clear();
  for (const RtrCacheConfig& c : caches) status_.push_back(CacheStatus{.config = c});
  if (caches.empty()) return Status::Ok();

  auto s = std::make_unique<Sessions>();
  std::map<uint8_t, std::vector<rtr_socket*>> by_pref;
  for (const RtrCacheConfig& c : caches) {
    auto cache = std::make_unique<Sessions::Cache>();
    cache->host = c.address;
    cache->port = std::to_string(c.port);
    cache->tcp.host = cache->host.data();
    cache->tcp.port = cache->port.data();
    cache->tcp.connect_timeout = 10;
    if (tr_tcp_init(&cache->tcp, &cache->transport) != TR_SUCCESS) {
      return Internal("RTRlib refused the TCP transport to " + c.address);
    }
    cache->rtr.tr_socket = &cache->transport;
    by_pref[c.preference].push_back(&cache->rtr);
    s->caches.push_back(std::move(cache));
  }
  for (auto& [pref, sockets] : by_pref) s->group_sockets.push_back(sockets);
  size_t g = 0;
  for (auto& [pref, sockets] : by_pref) {
    rtr_mgr_group group{};
    group.sockets = s->group_sockets[g++].data();
    group.sockets_len = static_cast<unsigned>(sockets.size());
    group.preference = pref;
    s->groups.push_back(group);
  }
  {
    std::lock_guard lock(shared_->mu);
    for (size_t i = 0; i < s->caches.size(); ++i) shared_->cache_of[&s->caches[i]->rtr] = i;
    shared_->post_drain = [&io = io_, weak = std::weak_ptr<Shared>(shared_), this] {
      boost::asio::post(io, [weak, this] {
        if (weak.lock()) drain();
      });
    };
  }
  auto on_pfx = [](pfx_table* table, const pfx_record record, const bool added) {
    std::shared_ptr<Shared> sh;
    {
      std::lock_guard lock(registry_mu);
      auto it = Registry().find(table);
      if (it != Registry().end()) sh = it->second.lock();
    }
    if (!sh) return;
    const std::optional<IpPrefix> prefix = PrefixOf(record.prefix, record.min_len);
    if (!prefix || record.max_len < record.min_len || record.max_len > prefix->max_len()) return;
    std::lock_guard lock(sh->mu);
    auto cache = sh->cache_of.find(record.socket);
    Shared::Item item;
    item.generation = sh->generation;
    item.update = VrpUpdate{Vrp{*prefix, record.max_len, record.asn}, added,
                            cache == sh->cache_of.end() ? 0 : cache->second};
    const bool was_empty = sh->queue.empty();
    sh->queue.push_back(std::move(item));
    if (was_empty && sh->post_drain) sh->post_drain();
  };
  auto on_status = [](const rtr_mgr_group* group, enum rtr_mgr_status /*status*/,
                      const rtr_socket* socket, void* data) {
    auto* sh = static_cast<Shared*>(data);
    std::lock_guard lock(sh->mu);
    auto cache = sh->cache_of.find(socket);
    if (cache == sh->cache_of.end()) return;
    Shared::Item item;
    item.generation = sh->generation;
    item.is_state = true;
    item.update.cache = cache->second;
    item.state = rtr_state_to_str(socket->state);
    item.group_active = group && group->status == RTR_MGR_ESTABLISHED;
    item.session_id = socket->session_id;
    item.serial = socket->serial_number;
    item.version = socket->version;
    const bool was_empty = sh->queue.empty();
    sh->queue.push_back(std::move(item));
    if (was_empty && sh->post_drain) sh->post_drain();
  };
  // The status callback's pointer: the shared block lives as long as this client.
  if (rtr_mgr_init(&s->config, s->groups.data(), static_cast<unsigned>(s->groups.size()),
                   timers.refresh_s, timers.expire_s, timers.retry_s, on_pfx, nullptr, on_status,
                   shared_.get()) != RTR_SUCCESS) {
    s->config = nullptr;
    return Internal("RTRlib refused the cache configuration");
  }
  {
    std::lock_guard lock(registry_mu);
    Registry()[s->config->pfx_table] = shared_;
  }
  sessions_ = std::move(s);
  if (rtr_mgr_start(sessions_->config) != RTR_SUCCESS) {
    Stop();
    return Internal("RTRlib could not start the sessions");
  }
  return Status::Ok();
}

void RtrClient::drain() {
  std::vector<Shared::Item> items;
  uint64_t generation = 0;
  {
    std::lock_guard lock(shared_->mu);
    items.swap(shared_->queue);
    generation = shared_->generation;
  }
  std::vector<VrpUpdate> updates;
  for (Shared::Item& item : items) {
    if (item.generation != generation || item.update.cache >= status_.size()) continue;
    CacheStatus& c = status_[item.update.cache];
    if (item.is_state) {
      c.state = item.state;
      c.group_active = item.group_active;
      c.session_id = item.session_id;
      c.serial = item.serial;
      c.version = item.version;
      ++c.state_changes;
      continue;
    }
    ++c.updates;
    if (item.update.added) {
      ++c.vrps;
    } else if (c.vrps > 0) {
      --c.vrps;
    }
    updates.push_back(item.update);
  }
  ++drains_;
  if (!updates.empty() && on_update_) on_update_(std::move(updates));
}

}  // namespace strata::bgp
