// One endgame database file: the values of every position of one material signature, Black to
// move (index.hpp), two bits a position, behind a 64-byte header that names the signature and
// holds a checksum of the values. Beside it, a plies file holds one byte a position: for a won or
// lost position the retrograde level at which it was resolved (0: no move, the game is lost;
// 1: resolved by its conversions, the captures and promotions that leave the table; n: by
// positions of level n - 1), 254 at most; 0 for draws. The winner's best moves lead to a loss of
// a lower level, every move of the loser to a win of a lower level, so a winner that always
// takes a winning conversion, else the move to the lowest level, converts (plies_after). Files are
// written whole (a temporary file renamed into place) and checked whole when opened: a damaged or
// foreign file is refused with its name, never read as a wrong answer. Open files are
// memory-mapped; a lookup reads one byte.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "games/checkers/egtb/index.hpp"

namespace sp::checkers::egtb {

// A position's value for the side to move. 0 is never stored (a file holding it is damaged).
enum Value : uint8_t { kUnknown = 0, kWin = 1, kLoss = 2, kDraw = 3 };

// "checkers-1203.egtb": the digits are Black's kings, Black's men, White's kings, White's men.
std::string table_file_name(const Material& m);
// "checkers-1203.plies": the levels beside it.
std::string plies_file_name(const Material& m);

// Two bits a position, four positions a byte, position i in bits 2 * (i % 4) of byte i / 4.
inline Value packed_value(const uint8_t* data, uint64_t index) {
  return static_cast<Value>((data[index >> 2] >> (2 * (index & 3))) & 3u);
}

// Writes dir/plies_file_name(m), then dir/table_file_name(m), each through a temporary file in dir,
// flushed and renamed into place (a table file is there only with its plies file). `values` has
// SignatureIndex(m).size() values, none kUnknown, `plies` as many levels. Throws InputError when
// it cannot.
void write_table(const std::string& dir, const Material& m, const std::vector<uint8_t>& values,
                 const std::vector<uint8_t>& plies);

// An open database file, read-only and memory-mapped.
class TableFile {
 public:
  enum class Kind { kValues, kPlies };
  // Maps `path` and checks it: the header (magic, version, the signature the name says, the
  // position count of that signature), the file's length and the checksum of the values. Throws
  // InputError naming the file and what is wrong otherwise.
  TableFile(const std::string& path, const Material& m, Kind kind = Kind::kValues);
  ~TableFile();
  TableFile(const TableFile&) = delete;
  TableFile& operator=(const TableFile&) = delete;

  const Material& material() const { return index_.material(); }
  const SignatureIndex& index() const { return index_; }
  Value value(uint64_t index) const { return packed_value(data_, index); }
  int plies(uint64_t index) const { return data_[index]; }  // Kind::kPlies
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  SignatureIndex index_;
  void* map_ = nullptr;
  size_t map_bytes_ = 0;
  const uint8_t* data_ = nullptr;
};

}  // namespace sp::checkers::egtb
