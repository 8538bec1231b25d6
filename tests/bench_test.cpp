// `selfplay bench` prints the signature of a fixed playout workload (host/rollout/bench.hpp: 4096
// random setups x 16 uniform rollouts, fixed seed; the signature is their total plies). It is
// pinned here: any change to the rules, the playout code or the generator changes it, and such a
// change must update this number and say `Bench: <signature>` in its commit message.
#include <gtest/gtest.h>

#include <regex>
#include <sstream>
#include <string>

#include "tests/test_util.hpp"

namespace sp {
namespace {

constexpr const char* kSignature = "1413994";

// The number on the one `signature: N` line of `selfplay bench ARGS`; "" if there is none.
std::string signature_of(const std::string& args) {
  const test::CommandResult r = test::run_command(std::string("'") + SELFPLAY_BINARY +
                                                  "' bench --seconds 0 " + args + " 2>/dev/null");
  EXPECT_EQ(r.code, 0) << args << "\n" << r.out;
  const std::regex re(R"(^signature: ([0-9]+)$)");
  std::istringstream lines(r.out);
  std::string sig;
  int found = 0;
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_match(line, m, re)) sig = m[1].str(), ++found;
  }
  EXPECT_EQ(found, 1) << args << "\n" << r.out;
  return sig;
}

TEST(Bench, SignatureIsPinned) {
  EXPECT_EQ(signature_of("--backend cpu --threads 1"), kSignature);
  EXPECT_EQ(signature_of("--backend cpu --threads 2 --policy heavy"), kSignature)
      << "the signature workload does not depend on threads or the throughput policy";
  // Without a GPU, check compares cpu on all threads with cpu on one; with one, cuda with cpu.
  EXPECT_EQ(signature_of("--backend check --threads 2"), kSignature);
  // auto: cuda when built and a device is usable, else cpu.
  EXPECT_EQ(signature_of("--backend auto"), kSignature);
}

}  // namespace
}  // namespace sp
