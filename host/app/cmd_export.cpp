#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "core/errors.hpp"
#include "host/app/commands.hpp"
#include "host/base/system/atomic_file.hpp"
#include "host/records/export.hpp"

namespace sp::app {

Runner add_export(CLI::App& app) {
  auto file = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>();
  auto format = std::make_shared<std::string>("tsv");
  auto game = std::make_shared<int64_t>(-1);
  app.add_option("FILE", *file, "Campaign or match HDF5 file")->required();
  app.add_option("--format", *format,
                 "tsv: one tab-separated line per game; html: a replay viewer in one "
                 "self-contained page; boards: every ply's board as JSON lines; or the game's own "
                 "game-file format: pdn for checkers (CheckerBoard-style programs), psq (one game "
                 "per file, piskvork) or sgf for Gomoku")
      ->type_name("NAME")
      ->capture_default_str();
  app.add_option("--game", *game, "Export this game id alone")
      ->type_name("ID")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--out", *out,
                 "Write the text to this file (through a temporary file, renamed when complete) "
                 "instead of stdout; for a format of one game per file (psq) without --game, the "
                 "directory that gets one file per game (game-000017.psq)")
      ->check(non_empty_path())
      ->type_name("PATH");
  return [file, out, format, game]() {
    check_input_file(*file);
    if (!out->empty()) {
      std::error_code error;
      if (std::filesystem::equivalent(*file, *out, error))
        throw InputError("--out " + *out + " is the campaign file itself");
    }
    const std::optional<uint64_t> only =
        *game >= 0 ? std::optional<uint64_t>(static_cast<uint64_t>(*game)) : std::nullopt;
    if (!only && !out->empty() && selfplay::one_game_per_file(*file, *format)) {
      std::error_code error;
      std::filesystem::create_directories(*out, error);
      if (error || !std::filesystem::is_directory(*out))
        throw InputError("--out " + *out + ": cannot make a directory for the " + *format +
                         " files" + (error ? " (" + error.message() + ")" : ""));
      const auto files = selfplay::export_game_files(*file, *format);
      for (const auto& [name, text] : files)
        write_file_atomically((std::filesystem::path(*out) / name).string(), text);
      std::fprintf(stderr, "wrote %zu %s files to %s\n", files.size(), format->c_str(),
                   out->c_str());
      return 0;
    }
    if (!out->empty()) {
      // An export names a file in a folder that exists (docs/records.md): a mistyped folder is
      // an error, not a new tree.
      const std::filesystem::path parent = std::filesystem::path(write_target(*out)).parent_path();
      std::error_code error;
      if (!parent.empty() && !std::filesystem::is_directory(parent, error))
        throw InputError("--out " + *out + ": the folder " + parent.string() +
                         " is not an existing folder (make it first)");
    }
    const std::string text = selfplay::export_games(*file, *format, only);
    if (!out->empty()) {
      write_file_atomically(*out, text);
      return 0;
    }
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0)
      throw std::runtime_error("cannot write the export to stdout");
    return 0;
  };
}

}  // namespace sp::app
