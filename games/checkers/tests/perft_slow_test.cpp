// Deep checkers perft from the start (../shared/reference/checkers.md), depths 10-12: about half
// a minute in Release, so under the `slow` label (not in CI); depths 1-9 are in
// checkers_rules_test. The reference counts each distinct jump path as a move, as generate_moves
// does.
#include <gtest/gtest.h>

#include "games/checkers/checkers.hpp"
#include "games/checkers/perft.hpp"

namespace sp::checkers {
namespace {

TEST(CheckersPerftSlow, DepthTen) { EXPECT_EQ(perft(initial_state(), Rules{}, 10), 18391564u); }
TEST(CheckersPerftSlow, DepthEleven) { EXPECT_EQ(perft(initial_state(), Rules{}, 11), 85242128u); }
TEST(CheckersPerftSlow, DepthTwelve) { EXPECT_EQ(perft(initial_state(), Rules{}, 12), 388623673u); }

}  // namespace
}  // namespace sp::checkers
