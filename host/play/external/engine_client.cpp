#include "host/play/external/engine_client.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "host/base/system/log.hpp"

namespace sp::selfplay {
namespace {

using search::Termination;

// Gomocup's value for "no limit" in INFO time_left.
constexpr uint64_t kNoTimeLeft = 2147483647;
// START may take longer than a move (an engine loading its tables), at least this long.
constexpr uint32_t kStartMs = 5000;

bool starts_with(std::string_view line, std::string_view word) {
  return line.size() >= word.size() && line.compare(0, word.size(), word) == 0 &&
         (line.size() == word.size() || line[word.size()] == ' ');
}

std::string_view trim(std::string_view t) {
  while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
  while (!t.empty() && (t.back() == ' ' || t.back() == '\t')) t.remove_suffix(1);
  return t;
}

// Lines an engine may print at any time that are no answer.
bool is_chatter(std::string_view line) {
  return starts_with(line, "MESSAGE") || starts_with(line, "DEBUG");
}

}  // namespace

std::string EngineClient::time_limits_text() const {
  return fmt::format(
      "timeout_turn_ms {}{}, tolerance_ms {}", s_.timeout_turn_ms,
      s_.timeout_match_ms ? fmt::format(", timeout_match_ms {}", s_.timeout_match_ms) : "",
      s_.tolerance_ms);
}

void EngineClient::fail(Termination reason, std::string detail) {
  phase_ = Phase::kForfeit;
  forfeit_ = search::Forfeit{reason, std::move(detail)};
  if (reason == Termination::kCrash && child_) forfeit_.detail += " (" + child_->kill_now() + ")";
}

void EngineClient::start_game() {
  end_game();
  used_ms_ = 0;
  answer_text_.clear();
  forfeit_ = {};
  pending_.reset();
  child_ = std::make_unique<ChildProcess>(s_.command);
  phase_ = Phase::kStarting;
  start_deadline_ = Clock::now() + std::chrono::milliseconds(
                                       std::max(kStartMs, s_.timeout_turn_ms) + s_.tolerance_ms);
  if (!child_->write_line(s_.start)) return fail(Termination::kCrash, "its input closed at START");
}

std::optional<std::string> EngineClient::start_line(const std::string& line) {
  if (is_chatter(line)) {
    log::debug(s_.protocol + " " + excerpt(s_.command[0]) + ": " + excerpt(line));
    return std::nullopt;
  }
  if (line != "OK") return line;
  phase_ = Phase::kIdle;
  for (const std::string& info_line : s_.info)
    if (!child_->write_line(info_line)) {
      fail(Termination::kCrash, "its input closed after START");
      break;
    }
  return std::nullopt;
}

void EngineClient::wait_started() {
  const std::string& start = s_.start;
  for (std::string line; phase_ == Phase::kStarting;) {
    switch (child_->read_line(line, start_deadline_)) {
      case ChildProcess::Read::kTimeout:
        return fail(Termination::kTimeLoss, "no answer to " + start + " in time");
      case ChildProcess::Read::kClosed:
        return fail(Termination::kCrash, "it ended before answering " + start);
      case ChildProcess::Read::kLine:
        break;
    }
    if (const std::optional<std::string> refusal = start_line(line))
      throw InputError("engine " + excerpt(command_line_text()) + " refused " + start + ": '" +
                       excerpt(*refusal) + "'");
  }
}

void EngineClient::poll_start() {
  const std::string& start = s_.start;
  for (std::string line; phase_ == Phase::kStarting;) {
    const ChildProcess::Read got = child_->try_read_line(line);
    if (got == ChildProcess::Read::kClosed)
      return fail(Termination::kCrash, "it ended before answering " + start);
    if (got == ChildProcess::Read::kTimeout) {
      if (Clock::now() > start_deadline_)
        fail(Termination::kTimeLoss, "no answer to " + start + " in time");
      return;
    }
    if (const std::optional<std::string> refusal = start_line(line))
      return fail(Termination::kIllegalMove,
                  "answered " + start + " with '" + excerpt(*refusal) + "'");
  }
}

std::string EngineClient::command_line_text() const {
  std::string out;
  for (const std::string& w : s_.command) out += (out.empty() ? "" : " ") + w;
  return out;
}

void EngineClient::request(const std::vector<std::string>& lines) {
  if (phase_ == Phase::kForfeit) return;  // START failed: the first move is forfeited
  answer_text_.clear();
  if (phase_ == Phase::kStarting) {
    pending_ = lines;
    return poll();
  }
  send(lines);
}

void EngineClient::send(const std::vector<std::string>& lines) {
  uint64_t allowed = s_.timeout_turn_ms;
  uint64_t time_left = kNoTimeLeft;
  if (s_.timeout_match_ms) {
    time_left = s_.timeout_match_ms > used_ms_ ? s_.timeout_match_ms - used_ms_ : 0;
    allowed = std::min<uint64_t>(allowed, time_left);
  }
  // Lines printed since the last answer are no answer to this request.
  for (std::string line;;) {
    const ChildProcess::Read got = child_->try_read_line(line);
    if (got == ChildProcess::Read::kClosed)
      return fail(Termination::kCrash, "its output closed before it was to move");
    if (got == ChildProcess::Read::kTimeout) break;
    log::debug(s_.protocol + " " + excerpt(s_.command[0]) +
               " (between moves, ignored): " + excerpt(line));
  }
  phase_ = Phase::kThinking;
  sent_ = Clock::now();
  deadline_ = sent_ + std::chrono::milliseconds(allowed + s_.tolerance_ms);
  if (!child_->write_line("INFO time_left " + std::to_string(time_left)))
    return fail(Termination::kCrash, "its input closed");
  for (const std::string& line : lines)
    if (!child_->write_line(line)) return fail(Termination::kCrash, "its input closed");
  poll();
}

void EngineClient::poll() {
  if (phase_ == Phase::kStarting) {
    poll_start();
    if (phase_ != Phase::kIdle || !pending_) return;
    const std::vector<std::string> lines = std::move(*pending_);
    pending_.reset();
    return send(lines);  // send() polls once more
  }
  if (phase_ != Phase::kThinking) return;
  for (std::string line;;) {
    const ChildProcess::Read got = child_->try_read_line(line);
    if (got == ChildProcess::Read::kClosed)
      return fail(Termination::kCrash, "its output closed while it was to move");
    if (got == ChildProcess::Read::kTimeout) break;
    if (is_chatter(line)) {
      log::debug(s_.protocol + " " + excerpt(s_.command[0]) + ": " + excerpt(line));
      continue;
    }
    const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - sent_);
    used_ms_ += static_cast<uint64_t>(took.count());
    if (Clock::now() > deadline_)
      return fail(Termination::kTimeLoss,
                  fmt::format("answered after {} ms ({})", took.count(), time_limits_text()));
    if (s_.timeout_match_ms && used_ms_ > uint64_t{s_.timeout_match_ms} + s_.tolerance_ms)
      return fail(Termination::kTimeLoss, fmt::format("its game time ran out: {} ms used ({})",
                                                      used_ms_, time_limits_text()));
    answer_text_ = std::string(trim(line));
    if (starts_with(line, "ERROR") || starts_with(line, "UNKNOWN"))
      return fail(Termination::kIllegalMove, "answered '" + excerpt(line) + "' instead of a move");
    phase_ = Phase::kAnswered;
    return;
  }
  if (Clock::now() > deadline_) {
    used_ms_ += static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - sent_).count());
    fail(Termination::kTimeLoss,
         fmt::format(
             "no answer within {} ms ({})",
             std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - sent_).count(),
             time_limits_text()));
  }
}

void EngineClient::reject(std::string detail) {
  fail(Termination::kIllegalMove, std::move(detail));
}

std::optional<search::ExternalWait> EngineClient::waiting() const {
  const bool starting = phase_ == Phase::kStarting && pending_;
  if (phase_ != Phase::kThinking && !starting) return std::nullopt;
  if (child_->has_buffered_line())
    return search::ExternalWait{child_->out_fd(), Clock::time_point::min()};
  return search::ExternalWait{child_->out_fd(), starting ? start_deadline_ : deadline_};
}

void EngineClient::end_game() {
  if (!child_) return;
  const std::string ended = child_->finish(std::chrono::milliseconds(s_.tolerance_ms), "END");
  if (ended.rfind("killed after", 0) == 0)
    log::debug(s_.protocol + " " + excerpt(s_.command[0]) + " ignored END: " + ended);
  child_.reset();
  pending_.reset();
  phase_ = Phase::kIdle;
}

}  // namespace sp::selfplay
