// Facts about the run for file metadata and provenance (the time in UTC, the host name) and about
// the machine it runs on (its memory).
#pragma once

#include <cstdint>
#include <string>

namespace sp {

std::string utc_now();   // "2026-11-29T14:22:06Z"
std::string host_name();  // "unknown" when the system will not say

// The memory this process may use, in bytes: the machine's physical memory, or the memory limit
// of its control group (cgroup v2 memory.max or v1 memory.limit_in_bytes) when that is lower.
// 0 when the system will not say how much memory the machine has.
uint64_t usable_memory_bytes();

// A byte count for messages: "512 B", "4.0 MiB", "1.5 GiB", "4.0 TiB" (binary units).
std::string format_bytes(uint64_t bytes);

}  // namespace sp
