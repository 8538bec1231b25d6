#include "host/research/improve/loop.hpp"

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "host/play/selfplay/campaign.hpp"

namespace sp::improve {

std::string loop_identity(const std::string& explain_all, const std::vector<std::string>& names,
                          const std::vector<double>& initial_weights,
                          const std::vector<std::pair<std::string, std::string>>& references) {
  YAML::Node tree = YAML::Load(explain_all);
  tree.remove("stop");
  if (tree["selfplay"]) tree["selfplay"].remove("backend");
  YAML::Node values;
  for (size_t i = 0; i < names.size() && i < initial_weights.size(); ++i)
    values[names[i]] = fmt::format("{}", initial_weights[i]);
  // The engines that follow the champion name its file; the file's path does not matter.
  const std::string initial_path = tree["champion"]["weights"].as<std::string>("");
  for (const char* p : {"player0", "player1"}) {
    YAML::Node e = tree["selfplay"]["engines"][p];
    if (e && e["weights"] && e["weights"].as<std::string>("") == initial_path)
      e["weights"] = "champion";
  }
  tree["champion"]["weights"] = values;
  if (!references.empty()) {
    YAML::Node engines;
    for (const auto& [name, engine] : references) engines[name] = YAML::Load(engine);
    tree["gate"]["references"] = engines;
  }
  return selfplay::emit_identity(tree);
}

std::string loop_identity_difference(const std::string& stored, const std::string& current,
                                     const std::string& defaults) {
  return selfplay::identity_difference(stored, current, defaults);
}

bool claim_loop_dir(const std::string& dir, bool resume) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const bool exists = fs::exists(dir, ec);
  if (exists && !fs::is_directory(dir, ec))
    throw InputError(dir + " exists and is not a directory: --out names the loop's directory");
  const bool has_lineage = exists && fs::exists(dir + "/lineage.h5", ec);
  if (!resume) {
    if (exists && !fs::is_empty(dir, ec))
      throw InputError(dir + " exists and is not empty: continue its loop with --resume, or give " +
                       "another --out");
    fs::create_directories(dir, ec);
    if (ec) throw InputError("cannot create " + dir + ": " + ec.message());
    return false;
  }
  if (!exists) throw InputError("--resume: " + dir + " does not exist (start the loop without it)");
  if (has_lineage) return true;
  // A start cut short before its lineage was written leaves at most these (and the temporary
  // files of the writes it was in: lineage.h5.tmp, improve.yaml.tmp-XXXXXX).
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name != "improve.yaml" && name != "gen-000" && name != "lineage.h5.tmp" &&
        name.rfind("improve.yaml.tmp", 0) != 0)
      throw InputError("--resume: " + dir + " has no lineage.h5 but holds " + name +
                       ": not a loop's directory");
  }
  return false;
}

uint32_t trailing_rejections(const Lineage& lineage) {
  uint32_t n = 0;
  for (auto it = lineage.rows.rbegin(); it != lineage.rows.rend(); ++it) {
    if (static_cast<Verdict>(it->verdict) != Verdict::kReject) break;
    ++n;
  }
  return n;
}

std::string stop_reason(const Lineage& lineage, const StopSettings& stop) {
  const size_t finished = lineage.rows.empty() ? 0 : lineage.rows.size() - 1;
  if (finished >= stop.generations)
    return fmt::format("generations: {} of {} played", finished, stop.generations);
  if (stop.rejections > 0 && trailing_rejections(lineage) >= stop.rejections)
    return fmt::format("rejections: {} candidates in a row rejected", stop.rejections);
  if (stop.wall_seconds > 0) {
    double wall = 0;
    for (const LineageRow& r : lineage.rows) wall += r.wall_seconds;
    if (wall >= stop.wall_seconds)
      return fmt::format("wall clock: {} of {} used", duration_text(wall),
                         duration_text(stop.wall_seconds));
  }
  return "";
}

}  // namespace sp::improve
