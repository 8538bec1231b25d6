#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "core/errors.hpp"
#include "host/app/commands.hpp"
#include "host/records/verify.hpp"

namespace sp::app {

// A missing path or a directory is named plainly; anything else that is not a readable campaign
// is reported by the reader (io::CampaignError, io::H5Error).
void check_input_file(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::exists(path, error)) throw InputError(path + ": no such file");
  if (std::filesystem::is_directory(path, error))
    throw InputError(path + ": is a directory, not a campaign file");
}

Runner add_verify(CLI::App& app) {
  auto file = std::make_shared<std::string>();
  app.add_option("FILE", *file, "Campaign or match HDF5 file")->required();
  return [file]() {
    constexpr size_t kShown = 10;  // problem lines printed; the rest are counted
    check_input_file(*file);
    const selfplay::VerifyReport report = selfplay::verify_file(*file, kShown);
    for (const std::string& note : report.notes)
      std::fprintf(stderr, "note: %s: %s\n", file->c_str(), note.c_str());
    if (report.ignored_rows)
      std::fprintf(stderr,
                   "note: %s: %" PRIu64
                   " rows of unfinished games (or never written) not checked; a resume drops "
                   "them\n",
                   file->c_str(), report.ignored_rows);
    if (report.problems.count() == 0) {
      std::printf("verified %" PRIu64 " games, %" PRIu64 " plies, %" PRIu64 " positions%s: OK\n",
                  report.games, report.plies, report.positions,
                  report.pairs ? (", " + std::to_string(report.pairs) +
                                  (report.pairs == 1 ? " pair" : " pairs"))
                                     .c_str()
                               : "");
      return 0;
    }
    for (const std::string& line : report.problems.lines()) std::printf("%s\n", line.c_str());
    const uint64_t shown = report.problems.lines().size();
    if (report.problems.count() > shown)
      std::printf("... and %" PRIu64 " more\n", report.problems.count() - shown);
    return 1;
  };
}

}  // namespace sp::app
