// What an external program is as an Engine of the driver, whatever protocol it speaks: one
// EngineClient (engine_client.hpp) per game slot, begin() sends a request and returns, the driver
// polls (waiting(), collect()), and an answer that arrived is turned into a move by the protocol's
// check_answer(), which may reject it (an illegal-move forfeit). A failure of the program
// forfeits the game. PbrainEngine (Gomocup) and ExternalEngine (selfplay's engine protocol)
// derive from it.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "host/engines/search/engine.hpp"
#include "host/play/config/campaign_config.hpp"
#include "host/play/config/campaign_schema.hpp"
#include "host/play/external/engine_client.hpp"

namespace sp::selfplay {

// The client settings of an external engine config (`type: pbrain` or `external`): the program
// and its clock; the protocol's START and INFO lines are the engine's.
inline ClientSettings client_settings(const config::EngineConfig& cfg) {
  ClientSettings s;
  s.command = cfg.command;
  s.timeout_turn_ms = cfg.timeout_turn_ms;
  s.timeout_match_ms = cfg.timeout_match_ms;
  s.tolerance_ms = cfg.tolerance_ms;
  return s;
}

// Starts the program once, sends START and waits for its answer, then ends it: throws InputError
// when it refuses (ERROR) and std::runtime_error when it cannot be started; a crash or a late
// answer is left to the games (each forfeits). For a match, before its file exists.
inline void probe_program(ClientSettings settings) {
  EngineClient client(std::move(settings));
  client.start_game();
  client.wait_started();
  client.end_game();
}

template <sp::Game G>
class ProgramEngine : public search::Engine<G> {
 public:
  using typename search::Engine<G>::State;
  using typename search::Engine<G>::Move;
  using typename search::Engine<G>::Leaf;

  // "pbrain(/path/engine --x, 500 ms/move, 9000 ms/game)".
  std::string describe() const override {
    const ClientSettings& s = client_.settings();
    std::string out = s.protocol + "(" + config::command_text(s.command) + ", " +
                      std::to_string(s.timeout_turn_ms) + " ms/move";
    if (s.timeout_match_ms) out += ", " + std::to_string(s.timeout_match_ms) + " ms/game";
    return out + ")";
  }
  void collect(std::vector<Leaf>&) override {
    client_.poll();
    accept_answer();
  }
  void absorb(std::span<const rollout::LeafStats>) override {}
  bool decided() const override {
    return client_.phase() == EngineClient::Phase::kAnswered ||
           client_.phase() == EngineClient::Phase::kForfeit;
  }
  Move decision(search::MoveStats* stats) override {
    if (stats) *stats = search::MoveStats{};
    return move_;
  }
  // The program's thoughts stay in its process: the kind and the move.
  void report(search::SearchReport<Move>& out, uint32_t) const override {
    out.kind = search::SearchKind::kExternal;
    out.pv.push_back({-1, move_});
  }
  std::optional<search::ExternalWait> waiting() const override { return client_.waiting(); }
  std::optional<search::Forfeit> forfeit() const override {
    if (client_.phase() != EngineClient::Phase::kForfeit) return std::nullopt;
    return client_.forfeit();
  }
  void end_game() override { client_.end_game(); }

 protected:
  explicit ProgramEngine(ClientSettings settings) : client_(std::move(settings)) {}

  // Sends a request for a move in root (the protocol's lines) and reads what has arrived.
  void request(const State& root, const std::vector<std::string>& lines) {
    root_ = root;
    client_.request(lines);
    accept_answer();
  }
  // The move of root_ that the answer line stands for; throws InputError for one that is not a
  // legal move (its what() follows "answered '<line>': ").
  virtual Move parse_answer(const std::string& line) const = 0;

  EngineClient client_;
  State root_{};  // the position of the request

 private:
  // An answer that arrived: the legal move it names, or an illegal-move forfeit.
  void accept_answer() {
    if (client_.phase() != EngineClient::Phase::kAnswered) return;
    try {
      move_ = parse_answer(client_.answer_text());
    } catch (const InputError& e) {
      client_.reject("answered '" + excerpt(client_.answer_text()) + "': " + e.what());
    }
  }

  Move move_{};
};

}  // namespace sp::selfplay
