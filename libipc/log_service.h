// LogService: log/1.0 over the process's logging (common/log.h). The Router serves it on every
// target it adds, so every Strata process answers it with no code of its own.
// Threading: the io_context thread (the logging state itself is thread-safe).
#pragma once

#include "libipc/interfaces/log.strata.h"

namespace strata::ipc {

class LogService : public log::v1::LogHandler {
 public:
  // The one instance a process serves (never destroyed, like the logging state).
  static LogService& ForProcess();

  void GetLevels(const log::v1::GetLevelsRequest& request,
                 Responder<log::v1::GetLevelsReply> reply) override;
  void SetLevels(const log::v1::SetLevelsRequest& request,
                 Responder<log::v1::SetLevelsReply> reply) override;
  void GetLines(const log::v1::GetLinesRequest& request,
                Responder<log::v1::GetLinesReply> reply) override;
};

}  // namespace strata::ipc
