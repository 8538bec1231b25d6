// GameHost<CheckersGame>'s endgame hooks (core/game_host.hpp EndgameGame) over egtb/.
#include "games/checkers/egtb/build.hpp"
#include "games/checkers/egtb/tables.hpp"
#include "games/checkers/egtb/verify.hpp"
#include "games/checkers/host.hpp"

namespace sp {
namespace {

class CheckersProbe final : public EndgameProbe<checkers::State> {
 public:
  explicit CheckersProbe(const std::string& dir) : tables_(dir) {}
  EndgameValue probe(const checkers::State& s) const override {
    return static_cast<EndgameValue>(tables_.probe(s));
  }
  int max_pieces() const override { return tables_.max_pieces(); }
  int pieces(const checkers::State& s) const override { return count(checkers::occupied(s)); }
  int plies_after(const checkers::State& before, const checkers::State& after) const override {
    return tables_.plies_after(before, after);
  }

 private:
  checkers::egtb::Tables tables_;
};

}  // namespace

EndgameBuildResult GameHost<CheckersGame>::egtb_build(const EndgameBuildOptions& options) {
  return checkers::egtb::build(options);
}

EndgameVerifyResult GameHost<CheckersGame>::egtb_verify(
    const std::string& dir, const ParallelFor& parallel_for,
    const std::function<void(const EndgameProgress&)>& progress) {
  return checkers::egtb::verify(dir, parallel_for, progress);
}

std::shared_ptr<const EndgameProbe<checkers::State>> GameHost<CheckersGame>::egtb_open(
    const std::string& dir) {
  return std::make_shared<CheckersProbe>(dir);
}

uint64_t GameHost<CheckersGame>::egtb_configurations(int pieces) {
  return checkers::egtb::configurations(pieces);
}

}  // namespace sp
