#include "host/base/system/process_tree.hpp"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace sp {
namespace {

std::atomic<bool> g_adopting{false};
std::mutex g_mutex;
std::set<pid_t> g_children;  // ChildProcess's live programs

// A process as /proc shows it: its id and its start time (clock ticks after boot), which tells
// it from a later process that got the same id.
struct Entry {
  pid_t parent = 0;
  ProcessId id;
};

std::optional<Entry> read_entry(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!std::getline(stat, text)) return std::nullopt;
  // "pid (comm) state ppid ... starttime(22) ...": comm may hold spaces and parentheses, so the
  // fields are read after the last ')'.
  const size_t close = text.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream fields(text.substr(close + 1));
  std::string word;
  Entry e;
  e.id.pid = pid;
  for (int field = 3; field <= 22 && fields >> word; ++field) {
    if (field == 4) e.parent = static_cast<pid_t>(std::strtol(word.c_str(), nullptr, 10));
    if (field == 22) e.id.start = std::strtoull(word.c_str(), nullptr, 10);
  }
  if (e.id.start == 0 && e.parent == 0) return std::nullopt;
  return e;
}

// Every process /proc shows, by parent (one that ends meanwhile is skipped).
std::multimap<pid_t, ProcessId> children_by_parent() {
  std::multimap<pid_t, ProcessId> out;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", error)) {
    const std::string name = entry.path().filename().string();
    pid_t pid = 0;
    const auto [end, parsed] = std::from_chars(name.data(), name.data() + name.size(), pid);
    if (parsed != std::errc() || end != name.data() + name.size()) continue;
    if (const std::optional<Entry> e = read_entry(pid)) out.emplace(e->parent, e->id);
  }
  return out;
}

// Every descendant of root in the table (root excluded).
std::vector<ProcessId> descendants(const std::multimap<pid_t, ProcessId>& tree, pid_t root) {
  std::vector<ProcessId> out;
  std::vector<pid_t> queue{root};
  while (!queue.empty()) {
    const pid_t p = queue.back();
    queue.pop_back();
    const auto [first, last] = tree.equal_range(p);
    for (auto it = first; it != last; ++it) {
      out.push_back(it->second);
      queue.push_back(it->second.pid);
    }
  }
  return out;
}

}  // namespace

bool adopt_orphans() {
  if (::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) return false;
  g_adopting.store(true);
  return true;
}

std::vector<ProcessId> descendants_of(pid_t root) {
  return descendants(children_by_parent(), root);
}

void kill_processes(const std::vector<ProcessId>& processes) {
  // Stopped first, so that none forks again between the search and its kill; a process whose
  // start time changed has ended, and its id may be another's now.
  const auto same = [](const ProcessId& p) {
    const std::optional<Entry> now = read_entry(p.pid);
    return now && now->id.start == p.start;
  };
  std::vector<ProcessId> live;
  for (const ProcessId& p : processes)
    if (same(p)) {
      ::kill(p.pid, SIGSTOP);
      live.push_back(p);
    }
  for (const ProcessId& p : live)
    if (same(p)) ::kill(p.pid, SIGKILL);
}

void kill_descendants(pid_t root) {
  for (int round = 0; round < 8; ++round) {
    const std::vector<ProcessId> found = descendants_of(root);
    if (found.empty()) return;
    kill_processes(found);
  }
}

pid_t spawn_registered(const std::function<pid_t()>& spawn) {
  const std::lock_guard<std::mutex> lock(g_mutex);
  const pid_t pid = spawn();
  if (pid > 0) g_children.insert(pid);
  return pid;
}

void unregister_child(pid_t pid) {
  bool last = false;
  {
    const std::lock_guard<std::mutex> lock(g_mutex);
    last = g_children.erase(pid) > 0 && g_children.empty();
  }
  if (last) end_adopted_orphans();
}

void end_adopted_orphans() {
  if (!g_adopting.load()) return;
  const pid_t self = ::getpid();
  for (int round = 0; round < 8; ++round) {
    std::vector<ProcessId> orphans;
    {
      const std::lock_guard<std::mutex> lock(g_mutex);
      const auto tree = children_by_parent();
      const auto [first, last] = tree.equal_range(self);
      for (auto it = first; it != last; ++it)
        if (!g_children.count(it->second.pid)) orphans.push_back(it->second);
    }
    if (orphans.empty()) return;
    for (const ProcessId& p : orphans) kill_descendants(p.pid);
    kill_processes(orphans);
    for (const ProcessId& p : orphans) {
      int status = 0;
      while (::waitpid(p.pid, &status, 0) < 0 && errno == EINTR) {
      }
    }
  }
}

}  // namespace sp
