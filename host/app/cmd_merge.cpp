#include <cinttypes>
#include <cstdio>
#include <memory>
#include <string>

#include "host/app/commands.hpp"
#include "host/base/hdf5/campaign_file.hpp"
#include "host/base/hdf5/campaign_index.hpp"

namespace sp::app {

Runner add_merge(CLI::App& app) {
  auto in = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>();
  app.add_option("INPUT", *in,
                 "Campaign or match HDF5 file, or the index over the files of an MPI run")
      ->required();
  app.add_option("-o,--output", *out,
                 "The standalone copy to write: a new file (written through a temporary file, "
                 "renamed when complete)")
      ->required()
      ->check(non_empty_path());
  return [in, out]() {
    check_input_file(*in);
    io::merge_campaign(*in, *out);
    const io::CampaignReader r(*out);
    std::printf("merged %s into %s: %" PRIu64 " /games rows, %" PRIu64 " /plies rows, %" PRIu64
                " /positions rows, %" PRIu64 " /perf rows, %" PRIu64 " /match/pairs rows\n",
                in->c_str(), out->c_str(), r.games_count(), r.plies_count(), r.positions_count(),
                r.perf_count(), r.match_pairs_count());
    return 0;
  };
}

}  // namespace sp::app
