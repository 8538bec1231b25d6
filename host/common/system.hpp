// Facts about the run for file metadata and provenance: the time in UTC, the host name.
#pragma once

#include <string>

namespace sp {

std::string utc_now();   // "2026-11-29T14:22:06Z"
std::string host_name();  // "unknown" when the system will not say

}  // namespace sp
