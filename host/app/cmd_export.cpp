#include <cstdio>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>

#include "games/common/errors.hpp"
#include "host/app/commands.hpp"
#include "host/selfplay/export.hpp"
#include "host/tune/tune_run.hpp"

namespace sp::app {

Runner add_export(CLI::App& app) {
  auto file = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>();
  auto format = std::make_shared<std::string>("tsv");
  app.add_option("FILE", *file, "Campaign or match HDF5 file")->required();
  app.add_option("--format", *format,
                 "tsv: one tab-separated line per game; or the game's own game-file format, "
                 "e.g. pdn for checkers (PDN games that CheckerBoard-style programs read)")
      ->type_name("NAME")
      ->capture_default_str();
  app.add_option("--out", *out,
                 "Write the text to this file (through a temporary file, renamed when complete) "
                 "instead of stdout")
      ->type_name("TEXT");
  return [file, out, format]() {
    check_input_file(*file);
    if (!out->empty()) {
      std::error_code error;
      if (std::filesystem::equivalent(*file, *out, error))
        throw InputError("--out " + *out + " is the campaign file itself");
    }
    const std::string text = selfplay::export_games(*file, *format);
    if (!out->empty()) {
      tune::write_file_atomically(*out, text);
      return 0;
    }
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0)
      throw std::runtime_error("cannot write the export to stdout");
    return 0;
  };
}

}  // namespace sp::app
