// interop_ping: a minimal continuous IPv4 ping for the interop tests (the test machines have no
// iputils). `interop_ping <address> [interval-ms]` sends an ICMP echo request every interval
// (default 100 ms) from a raw socket (needs root) until killed, and prints one line per echo
// reply in ping's own form, "64 bytes from 10.0.0.1: icmp_seq=7 ttl=63", flushed at once so a
// test can count the replies in the log while it runs.
#include <arpa/inet.h>
#include <netinet/ip.h>
#include <netinet/ip_icmp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

uint16_t Checksum(const uint8_t* data, size_t len) {
  uint32_t sum = 0;
  for (size_t i = 0; i + 1 < len; i += 2) sum += static_cast<uint32_t>(data[i] << 8 | data[i + 1]);
  if (len % 2 == 1) sum += static_cast<uint32_t>(data[len - 1] << 8);
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
  return htons(static_cast<uint16_t>(~sum));
}

bool SendEcho(int fd, const sockaddr_in& to, uint16_t id, uint16_t seq) {
  std::array<uint8_t, 64> pkt{};
  icmphdr h{};
  h.type = ICMP_ECHO;
  h.un.echo.id = htons(id);
  h.un.echo.sequence = htons(seq);
  std::memcpy(pkt.data(), &h, sizeof(h));
  h.checksum = Checksum(pkt.data(), pkt.size());
  std::memcpy(pkt.data(), &h, sizeof(h));
  return ::sendto(fd, pkt.data(), pkt.size(), 0, reinterpret_cast<const sockaddr*>(&to),
                  sizeof(to)) == static_cast<ssize_t>(pkt.size());
}

// Reads one datagram; prints it when it is an echo reply to us.
void ReadReply(int fd, uint16_t id) {
  std::array<uint8_t, 1500> buf{};
  sockaddr_in from{};
  socklen_t fl = sizeof(from);
  const ssize_t n =
      ::recvfrom(fd, buf.data(), buf.size(), 0, reinterpret_cast<sockaddr*>(&from), &fl);
  if (n < static_cast<ssize_t>(sizeof(iphdr))) return;
  iphdr ip{};
  std::memcpy(&ip, buf.data(), sizeof(ip));
  const size_t hl = ip.ihl * 4u;
  if (static_cast<size_t>(n) < hl + sizeof(icmphdr)) return;
  icmphdr h{};
  std::memcpy(&h, buf.data() + hl, sizeof(h));
  if (h.type != ICMP_ECHOREPLY || ntohs(h.un.echo.id) != id) return;
  char addr[INET_ADDRSTRLEN] = {};
  ::inet_ntop(AF_INET, &from.sin_addr, addr, sizeof(addr));
  std::printf("%zd bytes from %s: icmp_seq=%u ttl=%u\n", n - static_cast<ssize_t>(hl), addr,
              ntohs(h.un.echo.sequence), ip.ttl);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: interop_ping ADDRESS [INTERVAL_MS]\n");
    return 2;
  }
  sockaddr_in to{};
  to.sin_family = AF_INET;
  if (::inet_pton(AF_INET, argv[1], &to.sin_addr) != 1) {
    std::fprintf(stderr, "interop_ping: bad address %s\n", argv[1]);
    return 2;
  }
  const auto interval = std::chrono::milliseconds(argc == 3 ? std::atoi(argv[2]) : 100);
  const int fd = ::socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);
  if (fd < 0) {
    std::perror("interop_ping: socket");
    return 1;
  }
  const uint16_t id = static_cast<uint16_t>(::getpid());
  uint16_t seq = 0;
  auto next = std::chrono::steady_clock::now();
  for (;;) {
    const auto now = std::chrono::steady_clock::now();
    if (now >= next) {
      if (!SendEcho(fd, to, id, ++seq)) std::printf("send failed icmp_seq=%u\n", seq);
      std::fflush(stdout);
      next += interval;
      continue;
    }
    pollfd p{.fd = fd, .events = POLLIN, .revents = 0};
    const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(next - now).count();
    if (::poll(&p, 1, static_cast<int>(wait) + 1) > 0) ReadReply(fd, id);
  }
}
