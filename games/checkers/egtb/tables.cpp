#include "games/checkers/egtb/tables.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "core/errors.hpp"

namespace sp::checkers::egtb {
namespace {

// The material a file name stands for; false for names that are not database files.
bool material_of_name(const std::string& name, Material* m) {
  if (name.size() != 18 || name.compare(0, 9, "checkers-") != 0 ||
      name.compare(13, 5, ".egtb") != 0)
    return false;
  int d[4];
  for (int i = 0; i < 4; ++i) {
    const char c = name[9 + i];
    if (c < '0' || c > '9') return false;
    d[i] = c - '0';
  }
  *m = {d[0], d[1], d[2], d[3]};
  return m->pieces() <= kMaxPieces && m->black_kings + m->black_men > 0 &&
         m->white_kings + m->white_men > 0 && m->black_men <= kPiecesPerSide &&
         m->white_men <= kPiecesPerSide;
}

}  // namespace

Tables::Tables(const std::string& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec))
    throw InputError("endgame databases: " + excerpt(dir) + " is not a folder");
  std::vector<std::pair<std::string, Material>> found;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    Material m;
    if (material_of_name(it->path().filename().string(), &m))
      found.emplace_back(it->path().filename().string(), m);
  }
  if (ec) throw InputError("endgame databases: cannot read " + excerpt(dir) + ": " + ec.message());
  std::sort(found.begin(), found.end(),
            [](const auto& x, const auto& y) { return x.first < y.first; });
  for (const auto& [name, m] : found) add(dir, m);
}

void Tables::add(const std::string& dir, const Material& m) {
  auto file =
      std::make_unique<TableFile>((std::filesystem::path(dir) / table_file_name(m)).string(), m);
  const int at = slot(m);
  if (slots_[at]) {
    std::erase_if(files_, [&](const auto& f) { return f.get() == slots_[at]; });
  }
  slots_[at] = file.get();
  max_pieces_ = std::max(max_pieces_, m.pieces());
  files_.push_back(std::move(file));
  if (plies_slots_[at]) {
    std::erase_if(plies_files_, [&](const auto& f) { return f.get() == plies_slots_[at]; });
    plies_slots_[at] = nullptr;
  }
  const std::string plies = (std::filesystem::path(dir) / plies_file_name(m)).string();
  std::error_code ec;
  if (!std::filesystem::exists(plies, ec)) return;
  plies_files_.push_back(std::make_unique<TableFile>(plies, m, TableFile::Kind::kPlies));
  plies_slots_[at] = plies_files_.back().get();
}

int Tables::plies(const State& s) const {
  if (own_pieces(s) == 0 || opponent_pieces(s) == 0) return 0;
  const Boards b = canonical(s);
  const TableFile* f = find_plies(material_of(b));
  return f ? f->plies(f->index().rank(b)) : -1;
}

int Tables::plies_after(const State& before, const State& after) const {
  if (!(material_of(canonical(before)).flipped() == material_of(canonical(after)))) return 0;
  return plies(after);
}

Value Tables::probe(const Boards& b) const {
  if (b.black == 0) return kLoss;
  // White has no piece left but has not yet lost: Black wins by any move (White then has none).
  if (b.white == 0) return has_move(state_of(b)) ? kWin : kLoss;
  const TableFile* f = find(material_of(b));
  return f ? f->value(f->index().rank(b)) : kUnknown;
}

Value Tables::probe(const State& s) const {
  if (own_pieces(s) == 0) return kLoss;
  return probe(canonical(s));
}

uint64_t Tables::positions() const {
  uint64_t n = 0;
  for (const auto& f : files_) n += f->index().size();
  return n;
}

}  // namespace sp::checkers::egtb
