// The files of a campaign or match played by several ranks (host/base/mpi/): each rank writes its
// own crash-safe file beside the main output, `<stem>.rank<k><ext>` (out/c.h5: out/c.rank0.h5,
// out/c.rank1.h5, ...), and rank 0 makes the main output an index over them at the end.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "host/base/system/system.hpp"

namespace sp::selfplay {

// The file rank k writes for the main output `path`.
std::string rank_file(const std::string& path, int rank);
// The rank files of `path` that exist, by rank (those of earlier runs with more ranks included).
std::vector<std::string> rank_files(const std::string& path);

// Whether the run goes through the ranks' files: several ranks, or rank files already beside the
// output (a run of several ranks continued by fewer, or by one).
bool ranked_run(const std::string& path);

// Rank 0's claim of the main output of a ranked run: the path checked, its folder created, its
// lock taken. Throws InputError when the output or rank files exist without resume, or when
// neither does with it. `what` names the run ("campaign", "match").
FileLock claim_index(const std::string& path, bool resume, const std::string& what);

// Rank 0, at the end: the main output becomes the index over the rank files `parts`
// (io::write_campaign_index), its lock (claim_index) handed over to the index's writer.
void write_index(FileLock index_lock, const std::string& path,
                 const std::vector<std::string>& parts);

// "rank 2" or "ranks 1, 3".
std::string ranks_text(const std::vector<int>& ranks);

}  // namespace sp::selfplay
