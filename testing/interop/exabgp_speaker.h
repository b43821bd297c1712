// ExabgpSpeaker: ExaBGP 4.2 as a BGP speaker of the interop harness, and the tool for sending
// crafted (malformed) UPDATEs.
//
// exabgp runs in the foreground with its environment pointing every file into the speaker's
// directory (no CLI pipes, no privilege drop, log file, pid file). Two API processes:
//   cmd:  `cat` reading a FIFO (commands.fifo, opened read-write so it never sees EOF): every
//         line written to the FIFO is an API command ("announce route ..."). cat keeps the
//         pipe exabgp writes to open on fd 3, else exabgp sees EPIPE and restarts it.
//   recv: `cat >> received.jsonl` with the JSON encoder, receiving parsed UPDATEs and neighbour
//         state changes; ReceivedRoutes() and Established() replay that file. cat keeps its
//         stdout pipe open on fd 4: exabgp takes EOF on it for the process's death.
// Raw attributes: the announce syntax accepts generic attributes `attribute [ 0xCODE 0xFLAGS
// 0xPAYLOAD ]`, packed as given; one with the code of a well-known attribute replaces it (and
// suppresses exabgp's default ORIGIN/AS_PATH), which is how tests send malformed attributes.
// ExaBGP 4.2 has no API command for a whole raw UPDATE message.
// Logs: exabgp.log (exabgp's log), exabgp.out (stdout/stderr), received.jsonl.
#pragma once

#include "testing/interop/bgp_speaker.h"
#include "testing/interop/command.h"

namespace strata::interop {

class ExabgpSpeaker : public BgpSpeaker {
 public:
  using BgpSpeaker::BgpSpeaker;
  ~ExabgpSpeaker() override { Stop(); }

  Status Start() override;
  void Stop() override;
  bool Established(const std::string& neighbor) override;
  StatusOr<std::vector<Route>> ReceivedRoutes() override;
  Status Announce(const Route& route) override;
  Status Withdraw(const std::string& prefix) override;
  Status ResetSession(const std::string& neighbor) override;
  std::string Logs() const override;

  // Sends one API command line as is, e.g.
  // "announce route 10.9.0.0/24 next-hop self attribute [ 0x04 0x80 0x000001 ]".
  Status SendCommand(const std::string& line);
  std::string ConfigText() const;
  // Replays received.jsonl (exposed for tests of the parser).
  static std::vector<Route> ParseReceived(const std::string& jsonl);
  // The API's text form of `route` ("route P next-hop X med N community [...] ...").
  static std::string RouteText(const Route& route);

 private:
  Daemon daemon_;
};

}  // namespace strata::interop
