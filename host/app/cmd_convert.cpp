#include <cinttypes>
#include <cstdio>
#include <memory>
#include <string>

#include "host/app/commands.hpp"
#include "host/base/hdf5/campaign_file.hpp"

namespace sp::app {

Runner add_convert(CLI::App& app) {
  auto in = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>();
  app.add_option("IN", *in, "Campaign or match HDF5 file of format 1 or 2")->required();
  app.add_option("OUT", *out,
                 "The format-3 copy to write: a new file (written through a temporary file, "
                 "renamed when complete)")
      ->required();
  return [in, out]() {
    check_input_file(*in);
    const io::ConvertReport r = io::convert_to_current(*in, *out);
    std::printf("converted %s (format %" PRIu32 ") to %s (format %" PRIu32 "): %" PRIu64
                " /games rows, %" PRIu64 " /plies rows, %" PRIu64 " /positions rows, %" PRIu64
                " /perf rows, %" PRIu64 " /match/pairs rows\n",
                in->c_str(), r.from_version, out->c_str(), io::kCampaignFormatVersion, r.games,
                r.plies, r.positions, r.perf, r.match_pairs);
    return 0;
  };
}

}  // namespace sp::app
