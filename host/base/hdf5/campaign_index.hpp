// One campaign spread over several files (the ranks of an MPI run, each writing its own ordinary
// campaign file) read as one: an index file of HDF5 virtual datasets (VDS) over the parts, and a
// standalone copy of it (`selfplay merge`).
//
// An index has the layout of a campaign file (campaign_file.hpp) with every dataset virtual: row
// i of /games, /plies, each /positions column (features included), /perf and /match/pairs is a
// row of one part, the parts' rows laid end to end in the order given. Its root attributes, and
// those of /positions/features and /match, are the first part's, plus `parts`: the part files as
// the index names them. CampaignReader, h5py (h5py.File(path, "r")) and the notebooks' loader
// read it as one file; resuming it is refused (resume the parts, then write the index again).
//
// The index is a snapshot of the parts' row counts when it was written: rows a part gains later
// are not seen, and a part that lost rows since (a resume drops unfinished games) makes the index
// stale: CampaignReader refuses it naming the part, and HDF5 fails the read. Write the index after
// the parts' writers closed them, and again after resuming them. Each part contributes its
// /positions rows up to its shortest column, so the columns of the index have equal lengths and
// stay aligned; fill rows of a part stay where they are, as in a single file.
//
// Part files beside the index (in its folder or below) are named relative to its folder, others
// by their absolute path: the folder of an index and its parts can be moved as a whole. HDF5
// looks for a relative part in the index's folder first, then in the working directory;
// CampaignReader refuses an index whose parts are not where the index says (h5py would read
// their rows as fill values).
#pragma once

#include <string>
#include <vector>

namespace sp::io {

// Writes `path` as an index over `parts` (at least one), atomically: built as
// `<target>.index.tmp` under the lock of a writer on `path` and renamed over `path` when complete
// (target: write_target(path)); on any failure nothing is left behind and an older `path` stays.
// The parts must be campaign files of one format and one campaign: the same format_version,
// game, rules, config, seed, identity, feature_names and /match attributes (or none), the same
// stored types, and disjoint game ids in /games; a difference is a CampaignError naming the part.
// An existing `path` is replaced only when it is an index itself (or an empty, unfinished
// file): a campaign file there is refused, never overwritten. Throws H5FileError (bad input) for
// a part that is missing or unreadable or a path that cannot be written, H5Error when writing
// fails (a full disk).
void write_campaign_index(const std::string& path, const std::vector<std::string>& parts);

// Writes a standalone (non-virtual) copy of the campaign file or index `in` at the new file `out`:
// every row as the reader sees it (fill rows included; /positions up to the shortest column), in
// the current format, with in's root attributes except `parts`. Built like every output through
// a temporary file renamed when complete, so `out` is never half-written. Throws H5FileError when
// `out` exists or cannot be created, or `in` is unreadable; H5Error when writing fails.
void merge_campaign(const std::string& in, const std::string& out);

}  // namespace sp::io
