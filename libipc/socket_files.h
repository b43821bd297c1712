// Socket files and descriptors: the Unix socket paths a process's Router listens on, their
// removal once the process is gone, and close-on-exec for every IPC socket.
//
// Each Router serves its lean and gRPC families on RUN_DIR/<first target>.<pid>.sock and
// RUN_DIR/<first target>.<pid>.grpc.sock; the listener removes its file when it closes, but a
// process that is killed leaves it behind. The supervisor (strata-rtrmgr) removes the files of
// each process it reaps, and at start the files of every process that no longer exists.
// Thread-compatible (plain file system calls).
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <string>

namespace strata::ipc {

// RUN_DIR/<name>.<pid>.sock, or .grpc.sock for the gRPC family.
std::string SocketFilePath(const std::string& run_dir, const std::string& name, pid_t pid,
                           bool grpc);
// The pid a socket file name carries ("rib.red.4242.sock" -> 4242); 0 if it is not one of ours.
pid_t SocketFilePid(const std::string& file_name);
// Removes the socket files of `pid` in `run_dir`; returns how many.
size_t RemoveSocketFiles(const std::string& run_dir, pid_t pid);
// Removes the socket files in `run_dir` whose process no longer exists; returns how many.
size_t RemoveStaleSocketFiles(const std::string& run_dir);

// The mode for a socket file at `path`: 0660 when its directory lets its group in (the rtrmgr
// opens the run directory to the operators' group, see docs/ipc.md), else 0600. Never others.
mode_t SocketFileMode(const std::string& path);

// Marks a socket close-on-exec. Boost.Asio opens and accepts without SOCK_CLOEXEC, and a process
// that starts others (strata-rtrmgr) must not hand them its listener and its connections: a
// child holding them keeps the rtrmgr's peers connected to a socket nobody reads.
void SetCloseOnExec(int fd);

}  // namespace strata::ipc
