// The files `selfplay tune` writes (weights, loss log, SPSA trajectory and result), checked before
// it reads an input or fits anything: a path it cannot write, or one that names an input, fails at
// once with an sp::InputError (exit 2) rather than after the work, or by destroying the input.
#pragma once

#include <string>
#include <vector>

namespace sp::tune {

// Throws InputError "WHERE: cannot write PATH: REASON" unless a file can be written at path
// through a temporary file and a rename: path is not a directory or another non-regular file
// (a device, a FIFO), and the nearest folder on its way that exists is a folder this process may
// create files in (missing folders below it are created when the file is written). where names
// the setting, e.g. "tune.yaml: key 'weights.output'" or "option --out".
void check_writable_file(const std::string& path, const std::string& where);

// A file the run reads, and what it is to the run ("weights.initial", "an input of data.inputs").
struct ReadFile {
  std::string path, role;
};

// Whether a and b name the same file: the same device and inode when both exist (hard and
// symbolic links, any spelling), else the same absolute path with links resolved.
bool same_file(const std::string& a, const std::string& b);

// Throws InputError "WHERE: PATH is ROLE (INPUT); ..." when output is the same file as one of
// the files read.
void check_not_an_input(const std::string& output, const std::string& where,
                        const std::vector<ReadFile>& read);

}  // namespace sp::tune
