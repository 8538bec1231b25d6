#include "host/base/mpi/dealer.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <thread>

#include "host/base/mpi/comm.hpp"

namespace sp::dist {
namespace {

enum Tag : int {
  kStart = 1,     // 0 -> k: the run was checked, start
  kRequest,       // k -> 0: uint32 ids wanted
  kChunk,         // 0 -> k: uint8 more to come, then uint32 ids
  kReport,        // k -> 0: uint32 games, uint32 batches, GameReport[], BatchReport[]
  kDone,          // k -> 0: its games are finished and its file closed
  kStop,          // k -> 0 and 0 -> k: a rank was stopped; everyone stops
  kStopStarting,  // 0 -> k: start no further game (the match decided)
};

// Reports travel at most this long after a game finished: rank 0's status line and the match's
// pair count stay current, and messages stay few.
constexpr auto kReportEvery = std::chrono::milliseconds(20);
constexpr auto kIdleSleep = std::chrono::milliseconds(1);
constexpr auto kPollEvery = std::chrono::milliseconds(1);

std::vector<std::byte> empty() { return {}; }

}  // namespace

Dealer::Dealer(std::vector<uint32_t> todo, uint32_t slots, uint32_t reserve)
    : rank_(dist::rank()), size_(dist::size()), slots_(slots), reserve_(std::max(1u, reserve)) {
  if (rank_ == 0) {
    pool_.assign(todo.begin(), todo.end());
    done_.assign(static_cast<size_t>(size_), false);
    done_[0] = true;
  }
}

void Dealer::deal_first_shares() {
  // Every other rank gets its first share right after rank 0's own first one, as if it had asked:
  // rank 0's slots start at once, and a rank whose first request came late would find little
  // left. (Not in the constructor: the ranks wait for start_together's message first.)
  if (rank_ != 0 || first_shares_dealt_) return;
  first_shares_dealt_ = true;
  for (int r = 1; r < size_; ++r) serve_request(r, slots_ + reserve_);
}

size_t Dealer::dealable() const {
  if (size_ == 1 || horizon_ == UINT32_MAX) return pool_.size();
  const auto end = std::lower_bound(pool_.begin(), pool_.end(), horizon_);
  return static_cast<size_t>(end - pool_.begin());
}

void Dealer::set_horizon(uint32_t horizon) {
  if (rank_ != 0 || horizon == horizon_) return;
  horizon_ = horizon;
  serve_waiting();
}

void Dealer::serve_waiting() {
  std::vector<std::pair<int, uint32_t>> waiting;
  waiting.swap(waiting_);
  for (const auto& [source, wanted] : waiting) serve_request(source, wanted);
}

size_t Dealer::share() const {
  // Guided self-scheduling: a share of what is left, so that the last ids spread over the ranks.
  return std::max<size_t>(1, (pool_.size() + 2 * static_cast<size_t>(size_) - 1) / (2 * size_));
}

std::optional<uint32_t> Dealer::take() {
  if (stopped_) return std::nullopt;
  if (rank_ == 0 && !dealing_) return std::nullopt;
  // One rank takes the ids in order. Rank 0 of several deals to itself as to the others, a share
  // at a time and at most once between two polls: taking straight from the pool, its slots would
  // start every id before the first request of another rank arrives, whenever the run has fewer
  // games than rank 0 plays at once.
  if (rank_ == 0 && size_ > 1 && queue_.empty() && !self_served_ && dealable() > 0) {
    const size_t n = std::min({share(), size_t{slots_} + reserve_, dealable()});
    queue_.insert(queue_.end(), pool_.begin(), pool_.begin() + static_cast<std::ptrdiff_t>(n));
    pool_.erase(pool_.begin(), pool_.begin() + static_cast<std::ptrdiff_t>(n));
    self_served_ = true;
    deal_first_shares();  // after rank 0's first share: it starts first, with the first ids
  }
  std::deque<uint32_t>& from = rank_ == 0 && size_ == 1 ? pool_ : queue_;
  if (from.empty()) {
    if (!exhausted()) ++starved_;
    return std::nullopt;
  }
  const uint32_t id = from.front();
  from.pop_front();
  return id;
}

bool Dealer::exhausted() const {
  if (stopped_) return true;
  if (rank_ == 0) return !dealing_ || (pool_.empty() && queue_.empty());
  return queue_.empty() && !more_coming_;
}

void Dealer::serve_request(int source, uint32_t wanted) {
  const size_t n = dealing_ && !stopped_ ? std::min({size_t{wanted}, share(), dealable()}) : 0;
  if (n == 0 && dealing_ && !stopped_ && !pool_.empty()) {
    // Every id left is past the horizon: answered when it moves (set_horizon) or the dealing ends.
    waiting_.emplace_back(source, wanted);
    return;
  }
  std::vector<std::byte> data;
  put<uint8_t>(data, n > 0 || (dealing_ && !pool_.empty()) ? 1 : 0);
  for (size_t i = 0; i < n; ++i) {
    put<uint32_t>(data, pool_.front());
    pool_.pop_front();
  }
  send(source, kChunk, std::move(data));
}

bool Dealer::receive_one() {
  std::optional<Message> m = receive();
  if (!m) return false;
  size_t at = 0;
  switch (m->tag) {
    case kRequest:
      if (rank_ == 0) serve_request(m->source, get<uint32_t>(m->data, at));
      break;
    case kChunk: {
      asked_ = false;
      more_coming_ = get<uint8_t>(m->data, at) != 0;
      if (stopped_ || !more_coming_) break;
      while (at < m->data.size()) queue_.push_back(get<uint32_t>(m->data, at));
      break;
    }
    case kReport: {
      const uint32_t games = get<uint32_t>(m->data, at), batches = get<uint32_t>(m->data, at);
      for (uint32_t i = 0; i < games; ++i) {
        const auto g = get<GameReport>(m->data, at);
        if (on_game) on_game(g);
      }
      for (uint32_t i = 0; i < batches; ++i) {
        const auto b = get<BatchReport>(m->data, at);
        if (on_batch) on_batch(b);
      }
      break;
    }
    case kDone:
      if (rank_ == 0) {
        done_[static_cast<size_t>(m->source)] = true;
        busiest_s_ = std::max(busiest_s_, get<double>(m->data, at));
      }
      break;
    case kStop:
      if (!stopped_ && rank_ == 0)
        for (int r = 1; r < size_; ++r)
          if (r != m->source) send(r, kStop, empty());
      stopped_ = true;
      queue_.clear();
      break;
    case kStopStarting:
      queue_.clear();
      more_coming_ = false;
      break;
    default:
      throw std::runtime_error("rank " + std::to_string(rank_) + ": unknown message " +
                               std::to_string(m->tag) + " from rank " + std::to_string(m->source));
  }
  return true;
}

void Dealer::send_reports() {
  if (games_out_.empty() && batches_out_.empty()) return;
  std::vector<std::byte> data;
  put<uint32_t>(data, static_cast<uint32_t>(games_out_.size()));
  put<uint32_t>(data, static_cast<uint32_t>(batches_out_.size()));
  for (const GameReport& g : games_out_) put(data, g);
  for (const BatchReport& b : batches_out_) put(data, b);
  send(0, kReport, std::move(data));
  games_out_.clear();
  batches_out_.clear();
  last_report_ = Clock::now();
}

void Dealer::poll() {
  self_served_ = false;
  deal_first_shares();
  const auto start = Clock::now();
  // Asking MPI for messages costs tens of microseconds (its progress engine runs): a driver loop
  // that turns quickly asks at most every kPollEvery, unless this rank is short of ids.
  const bool short_of_ids = rank_ != 0 && more_coming_ && !asked_ && queue_.size() < reserve_;
  if (start - last_poll_ < kPollEvery && !short_of_ids) return;
  last_poll_ = start;
  poll_messages();
  busy_s_ += std::chrono::duration<double>(Clock::now() - start).count();
}

void Dealer::poll_messages() {
  for (int i = 0; i < 256 && receive_one(); ++i) {
  }
  if (rank_ == 0 || size_ == 1) return;
  if (Clock::now() - last_report_ >= kReportEvery) send_reports();
  if (!stopped_ && more_coming_ && !asked_ && queue_.size() < reserve_) {
    // The first request fills every slot; later ones top the reserve up and cover the slots that
    // found nothing meanwhile.
    const uint32_t wanted = static_cast<uint32_t>(
        (first_request_ ? slots_ : std::min(starved_, slots_)) + reserve_ - queue_.size());
    std::vector<std::byte> data;
    put<uint32_t>(data, wanted);
    send(0, kRequest, std::move(data));
    asked_ = true;
    first_request_ = false;
    starved_ = 0;
  }
}

void Dealer::idle() {
  self_served_ = false;
  deal_first_shares();
  const auto start = Clock::now();
  const bool received = receive_one();
  poll_messages();
  busy_s_ += std::chrono::duration<double>(Clock::now() - start).count();
  if (!received) std::this_thread::sleep_for(kIdleSleep);
}

void Dealer::stop() {
  if (stopped_) return;
  stopped_ = true;
  queue_.clear();
  if (rank_ == 0) {
    for (int r = 1; r < size_; ++r) send(r, kStop, empty());
  } else {
    send(0, kStop, empty());
  }
}

void Dealer::report(const GameReport& game) {
  if (rank_ == 0) {
    if (on_game) on_game(game);
  } else {
    games_out_.push_back(game);
  }
}

void Dealer::report(const BatchReport& batch) {
  if (rank_ == 0) {
    if (on_batch) on_batch(batch);
  } else {
    batches_out_.push_back(batch);
  }
}

void Dealer::stop_dealing() {
  if (rank_ != 0 || !dealing_) return;
  dealing_ = false;
  waiting_.clear();  // every rank is told to stop starting
  for (int r = 1; r < size_; ++r) send(r, kStopStarting, empty());
}

std::vector<int> Dealer::finish(double grace_s) {
  const auto start = Clock::now();
  const auto late = [&] {
    return stopped_ && std::chrono::duration<double>(Clock::now() - start).count() > grace_s;
  };
  std::vector<int> missing;
  busiest_s_ = busy_s_;
  if (size_ == 1) return missing;
  if (rank_ != 0) {
    send_reports();
    std::vector<std::byte> data;
    put<double>(data, busy_s_);
    send(0, kDone, std::move(data));
    // Delivered before MPI ends (a stopped run whose rank 0 is gone gives up after the grace).
    while (sends_pending() && !late()) {
      while (receive_one()) {
      }
      std::this_thread::sleep_for(kIdleSleep);
    }
    return missing;
  }
  dealing_ = false;  // requests still coming are answered "no more", those waiting too
  serve_waiting();
  while (std::find(done_.begin(), done_.end(), false) != done_.end() && !late()) idle();
  for (int r = 0; r < size_; ++r)
    if (!done_[static_cast<size_t>(r)]) missing.push_back(r);
  return missing;
}

uint32_t match_window_games(int ranks, uint32_t slots, uint32_t reserve) {
  return 2 * static_cast<uint32_t>(std::max(1, ranks)) * (slots + reserve);
}

std::optional<std::string> start_together(const std::string& text, const std::atomic<bool>& stop) {
  if (rank() == 0) {
    for (int r = 1; r < size(); ++r) {
      const auto* p = reinterpret_cast<const std::byte*>(text.data());
      send(r, kStart, std::vector<std::byte>(p, p + text.size()));
    }
    return text;
  }
  for (;;) {
    if (std::optional<Message> m = receive()) {
      if (m->tag == kStart)
        return std::string(reinterpret_cast<const char*>(m->data.data()), m->data.size());
      if (m->tag == kStop) return std::nullopt;
      throw std::runtime_error("rank " + std::to_string(rank()) + ": message " +
                               std::to_string(m->tag) + " from rank " + std::to_string(m->source) +
                               " before the start");
    }
    if (stop.load()) return std::nullopt;
    std::this_thread::sleep_for(kIdleSleep);
  }
}

}  // namespace sp::dist
