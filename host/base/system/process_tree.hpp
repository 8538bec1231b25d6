// What external programs start ends with them: the processes a child of selfplay starts are found
// through /proc and killed with it, including those that left its process group (setsid) and
// those a double fork orphaned, which selfplay adopts as a child subreaper (Linux
// PR_SET_CHILD_SUBREAPER) and ends once no program of its own runs. ChildProcess uses these; the
// command line turns adoption on (adopt_orphans) at its start. docs/engines.md says what remains
// possible: a process that a program started and that outlives a SIGKILL of selfplay itself.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <vector>

namespace sp {

// Makes this process the subreaper of its descendants: an orphaned descendant (its parent exited)
// becomes this process's child instead of init's, so that end_adopted_orphans can end it. Once,
// at the start of the program, before any child exists. False where the platform lacks it.
bool adopt_orphans();

// A process, told from a later one with the same id by its start time.
struct ProcessId {
  pid_t pid = 0;
  uint64_t start = 0;  // clock ticks after boot (/proc/PID/stat field 22)
};

// The descendants of `root` (not root itself) that /proc shows now.
std::vector<ProcessId> descendants_of(pid_t root);
// SIGKILLs those of `processes` that still run (same id, same start time), stopping them all first.
void kill_processes(const std::vector<ProcessId>& processes);
// SIGKILLs every descendant of `root` (not root itself) that /proc shows, repeating the search
// until it finds none (a descendant may fork while it runs; at most a few rounds).
void kill_descendants(pid_t root);

// The live programs of ChildProcess, so that adopted orphans are told apart from them: a child of
// this process that is not registered and is not reaped by anyone else is an adopted orphan.
// unregister_child of the last one ends the adopted orphans (when adopt_orphans is on).
// spawn_registered runs spawn (a fork) and registers the pid it returns (when positive) under the
// registry's lock, so that no sweep sees the new child before it is registered.
pid_t spawn_registered(const std::function<pid_t()>& spawn);
void unregister_child(pid_t pid);

// Kills and reaps the children of this process that no ChildProcess owns (adopted orphans, and
// their descendants). Does nothing unless adopt_orphans() is on.
void end_adopted_orphans();

}  // namespace sp
