// The precompiled header of every test (tests/CMakeLists.txt, sp_test): what nearly every test
// file includes, parsed once per build tree instead of once per test file (about 8 s of each test
// file's compile time). Tests still include what they use; this only makes it cheaper.
#pragma once

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "core/errors.hpp"
#include "core/philox.hpp"
#include "games/hosts.hpp"
#include "host/base/hdf5/campaign_file.hpp"
#include "host/play/config/load.hpp"
#include "host/play/selfplay/campaign.hpp"
#include "tests/test_util.hpp"
