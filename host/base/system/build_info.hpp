// What this program is: its version, the commit it was built from and the build's options, as
// `selfplay --version` prints them and every output file records them (the HDF5 root attribute
// `program`, the viewer's header, the PDN and SGF headers; docs/records.md). The values are fixed
// when CMake configures (host/base/CMakeLists.txt), and only build_info.cpp sees them.
#pragma once

#include <string>

namespace sp::build {

const char* version();     // "0.1.0"
const char* git_commit();  // 12 hex digits, or "unknown" outside a git checkout
const char* options();     // "release, cuda on (architectures 90,80), mpi on, native on, ..."

// "selfplay 0.1.0, commit 0123456789ab, built release, cuda off, ...": one line that names all
// three.
std::string program_text();

}  // namespace sp::build
