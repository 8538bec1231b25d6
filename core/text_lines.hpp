// Lines and columns of offsets in one text, for the readers of files (openings, game files) that
// tell where each thing was read and where an error is. The line starts are found once, in one
// pass; each lookup is then a binary search, so a reader that asks for the position of every item
// stays linear in the text (counting lines from the start at each ask made the SGF and PDN readers
// quadratic: 40k games took 49 s).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace sp {

class TextLines {
 public:
  // The text must outlive nothing: only its line starts are kept.
  explicit TextLines(std::string_view text) : size_(text.size()) {
    starts_.push_back(0);
    for (size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n') starts_.push_back(i + 1);
    work() += text.size();
  }

  // Line and column (1-based, the column in bytes) of text[at]; an offset past the end counts as
  // the end.
  std::pair<int, int> position(size_t at) const {
    at = std::min(at, size_);
    const auto next = std::upper_bound(starts_.begin(), starts_.end(), at);
    const size_t line = static_cast<size_t>(next - starts_.begin());  // >= 1: starts_[0] == 0
    work() += 1;
    return {static_cast<int>(line), static_cast<int>(at - starts_[line - 1] + 1)};
  }
  int line(size_t at) const { return position(at).first; }

  // Steps taken by every TextLines of this thread: one per byte indexed, one per lookup. Tests
  // bound a reader's work with it (a count, never a time).
  static uint64_t& work() {
    thread_local uint64_t steps = 0;
    return steps;
  }

 private:
  size_t size_;
  std::vector<size_t> starts_;
};

}  // namespace sp
