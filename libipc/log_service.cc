#include "libipc/log_service.h"

#include "common/log.h"

namespace strata::ipc {

LogService& LogService::ForProcess() {
  static LogService* service = new LogService();
  return *service;
}

void LogService::GetLevels(const log::v1::GetLevelsRequest& /*request*/,
                           Responder<log::v1::GetLevelsReply> reply) {
  log::v1::GetLevelsReply out;
  out.set_levels(CurrentLogLevels().ToString());
  for (const std::string& n : LoggerNames()) out.add_loggers(n);
  reply(out);
}

void LogService::SetLevels(const log::v1::SetLevelsRequest& request,
                           Responder<log::v1::SetLevelsReply> reply) {
  auto levels = LogLevels::Parse(request.levels());
  if (!levels.ok()) return reply.Fail(levels.status());
  if (!(*levels == CurrentLogLevels())) {
    SetLogLevels(*levels);
    MakeLogger("log")->info("log levels now {}", levels->ToString());
  }
  reply(log::v1::SetLevelsReply());
}

void LogService::GetLines(const log::v1::GetLinesRequest& request,
                          Responder<log::v1::GetLinesReply> reply) {
  log::v1::GetLinesReply out;
  for (const LogLine& l : RecentLogLines(request.max(), request.prefix())) {
    auto* o = out.add_lines();
    o->set_unix_ns(l.unix_ns);
    o->set_level(std::string(LogLevels::LevelName(l.level)));
    o->set_logger(l.logger);
    o->set_text(l.text);
  }
  reply(out);
}

}  // namespace strata::ipc
