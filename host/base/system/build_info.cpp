#include "host/base/system/build_info.hpp"

#ifndef SELFPLAY_VERSION
#define SELFPLAY_VERSION "unknown"
#endif
#ifndef SELFPLAY_GIT_COMMIT
#define SELFPLAY_GIT_COMMIT "unknown"
#endif
#ifndef SELFPLAY_BUILD
#define SELFPLAY_BUILD "unknown"
#endif

namespace sp::build {

const char* version() { return SELFPLAY_VERSION; }
const char* git_commit() { return SELFPLAY_GIT_COMMIT; }
const char* options() { return SELFPLAY_BUILD; }

std::string program_text() {
  return std::string("selfplay ") + version() + ", commit " + git_commit() + ", built " + options();
}

}  // namespace sp::build
