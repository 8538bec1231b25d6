#include "games/checkers/egtb/table.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string_view>

#include "core/errors.hpp"

namespace sp::checkers::egtb {
namespace {

constexpr char kMagic[8] = {'S', 'P', 'E', 'G', 'T', 'B', 'C', 'K'};
constexpr char kPliesMagic[8] = {'S', 'P', 'E', 'G', 'T', 'B', 'P', 'L'};
constexpr uint32_t kVersion = 1;

// 64 bytes, little-endian as written by the machines selfplay runs on.
struct Header {
  char magic[8];
  uint32_t version;
  uint8_t material[4];  // black kings, black men, white kings, white men
  uint64_t positions;
  uint64_t data_bytes;
  uint64_t checksum;  // of the values (checksum() below)
  uint8_t zero[24];
};
static_assert(sizeof(Header) == 64);

// FNV-1a over 8-byte words, then the tail byte by byte: a corrupted byte changes it.
uint64_t checksum(const uint8_t* data, size_t bytes) {
  uint64_t h = 0xcbf29ce484222325ull;
  size_t i = 0;
  for (; i + 8 <= bytes; i += 8) {
    uint64_t w;
    std::memcpy(&w, data + i, 8);
    h = (h ^ w) * 0x100000001b3ull;
    h ^= h >> 29;
  }
  for (; i < bytes; ++i) h = (h ^ data[i]) * 0x100000001b3ull;
  return h;
}

std::string system_error(const std::string& what, const std::string& path) {
  return what + " " + excerpt(path) + ": " + std::strerror(errno);
}

}  // namespace

std::string table_file_name(const Material& m) {
  char name[32];
  std::snprintf(name, sizeof name, "checkers-%d%d%d%d.egtb", m.black_kings, m.black_men,
                m.white_kings, m.white_men);
  return name;
}

std::string plies_file_name(const Material& m) {
  std::string name = table_file_name(m);
  return name.substr(0, name.size() - 5) + ".plies";
}

namespace {

// Writes header and data to dir/name through a temporary file, flushed and renamed into place.
void write_whole(const std::string& dir, const std::string& name, Header h,
                 const std::vector<uint8_t>& data) {
  h.checksum = checksum(data.data(), data.size());
  const std::string path = (std::filesystem::path(dir) / name).string();
  const std::string temp = path + ".tmp";
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw InputError(system_error("cannot create", temp));
  const auto write_all = [&](const void* p, size_t n) {
    const auto* bytes = static_cast<const uint8_t*>(p);
    while (n > 0) {
      const ssize_t w = ::write(fd, bytes, n);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) return false;
      bytes += w;
      n -= static_cast<size_t>(w);
    }
    return true;
  };
  if (!write_all(&h, sizeof h) || !write_all(data.data(), data.size()) || ::fsync(fd) != 0) {
    const std::string message = system_error("cannot write", temp);
    ::close(fd);
    ::unlink(temp.c_str());
    throw InputError(message);
  }
  ::close(fd);
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    const std::string message = system_error("cannot rename into", path);
    ::unlink(temp.c_str());
    throw InputError(message);
  }
}

}  // namespace

void write_table(const std::string& dir, const Material& m, const std::vector<uint8_t>& values,
                 const std::vector<uint8_t>& plies) {
  const SignatureIndex index(m);
  if (values.size() != index.size() || plies.size() != index.size())
    throw std::logic_error("write_table: wrong value count");
  Header h{};
  std::memcpy(h.magic, kPliesMagic, 8);
  h.version = kVersion;
  h.material[0] = static_cast<uint8_t>(m.black_kings);
  h.material[1] = static_cast<uint8_t>(m.black_men);
  h.material[2] = static_cast<uint8_t>(m.white_kings);
  h.material[3] = static_cast<uint8_t>(m.white_men);
  h.positions = index.size();
  h.data_bytes = index.size();
  write_whole(dir, plies_file_name(m), h, plies);
  std::memcpy(h.magic, kMagic, 8);  // the rest of the header as the plies file's
  h.data_bytes = (index.size() + 3) / 4;
  std::vector<uint8_t> data(h.data_bytes, 0);
  for (uint64_t i = 0; i < values.size(); ++i) {
    if (values[i] == kUnknown || values[i] > kDraw)
      throw std::logic_error("write_table: a position without a value");
    data[i >> 2] |= static_cast<uint8_t>(values[i] << (2 * (i & 3)));
  }
  write_whole(dir, table_file_name(m), h, data);
}

TableFile::TableFile(const std::string& path, const Material& m, Kind kind)
    : path_(path), index_(m) {
  const bool values = kind == Kind::kValues;
  const uint64_t data_bytes = values ? (index_.size() + 3) / 4 : index_.size();
  const auto refuse = [&](const std::string& why) {
    throw InputError("endgame database " + excerpt(path) + ": " + why +
                     " (delete it and run `selfplay egtb build` again)");
  };
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw InputError(system_error("cannot open endgame database", path));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    refuse("not a regular file");
  }
  map_bytes_ = static_cast<size_t>(st.st_size);
  if (map_bytes_ < sizeof(Header)) {
    ::close(fd);
    refuse("shorter than its header (" + std::to_string(map_bytes_) + " bytes)");
  }
  map_ = ::mmap(nullptr, map_bytes_, PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);
  if (map_ == MAP_FAILED) {
    map_ = nullptr;
    throw InputError(system_error("cannot map endgame database", path));
  }
  try {
    Header h;
    std::memcpy(&h, map_, sizeof h);
    if (std::memcmp(h.magic, values ? kMagic : kPliesMagic, 8) != 0)
      refuse(values ? "not a selfplay checkers endgame database"
                    : "not a selfplay checkers endgame plies file");
    if (h.version != kVersion)
      refuse("format version " + std::to_string(h.version) + ", this program reads " +
             std::to_string(kVersion));
    const Material stored{h.material[0], h.material[1], h.material[2], h.material[3]};
    if (!(stored == m))
      refuse("its header names another material (" + table_file_name(stored) + ")");
    if (h.positions != index_.size() || h.data_bytes != data_bytes)
      refuse("its header counts " + std::to_string(h.positions) + " positions, the material has " +
             std::to_string(index_.size()));
    if (map_bytes_ != sizeof(Header) + h.data_bytes)
      refuse(std::to_string(map_bytes_) + " bytes, its header says " +
             std::to_string(sizeof(Header) + h.data_bytes) + " (cut short or extended)");
    data_ = static_cast<const uint8_t*>(map_) + sizeof(Header);
    if (checksum(data_, h.data_bytes) != h.checksum) refuse("its values fail their checksum");
    // Every position has a value.
    for (uint64_t i = 0; values && i < index_.size(); i += 1)
      if (i + 4 <= index_.size() && (i & 3) == 0) {
        const uint8_t b = data_[i >> 2];
        if ((b & 3) == 0 || (b & 12) == 0 || (b & 48) == 0 || (b & 192) == 0)
          refuse("a position without a value at index " + std::to_string(i));
        i += 3;
      } else if (packed_value(data_, i) == kUnknown) {
        refuse("a position without a value at index " + std::to_string(i));
      }
  } catch (...) {
    ::munmap(map_, map_bytes_);
    map_ = nullptr;
    throw;
  }
}

TableFile::~TableFile() {
  if (map_) ::munmap(map_, map_bytes_);
}

}  // namespace sp::checkers::egtb
