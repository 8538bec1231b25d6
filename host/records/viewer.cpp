#include "host/records/viewer.hpp"

#include <array>
#include <cstdio>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "host/base/stats/match_stats.hpp"
#include "host/base/system/build_info.hpp"
#include "host/engines/search/engine.hpp"
#include "host/records/record_rules.hpp"

namespace sp::selfplay {

// host/records/viewer/viewer.js and viewer.css, compiled in (host/CMakeLists.txt), and the
// script's SHA-256 in hex for the page's Content-Security-Policy.
extern const char kViewerScript[];
extern const char kViewerStyle[];
extern const char kViewerScriptSha256[];

namespace {

// The length of the UTF-8 sequence starting at text[i], 0 when it is not one.
size_t utf8_length(std::string_view text, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char c = byte(i);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || i + n > text.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  if (n == 2 && c < 0xC2) return 0;                          // overlong
  if (n == 3 && c == 0xE0 && byte(i + 1) < 0xA0) return 0;   // overlong
  if (n == 3 && c == 0xED && byte(i + 1) >= 0xA0) return 0;  // a surrogate
  if (n == 4 &&
      (c > 0xF4 || (c == 0xF0 && byte(i + 1) < 0x90) || (c == 0xF4 && byte(i + 1) >= 0x90)))
    return 0;
  return n;
}

std::string base64_of_hex(std::string_view hex) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string bytes;
  for (size_t i = 0; i + 1 < hex.size(); i += 2)
    bytes += static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16));
  std::string out;
  for (size_t i = 0; i < bytes.size(); i += 3) {
    uint32_t v = static_cast<unsigned char>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) v |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    if (i + 2 < bytes.size()) v |= static_cast<unsigned char>(bytes[i + 2]);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += i + 1 < bytes.size() ? kAlphabet[(v >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? kAlphabet[v & 63] : '=';
  }
  return out;
}

std::string json_list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t k = 0; k < items.size(); ++k) out += (k ? "," : "") + json_string(items[k]);
  return out + "]";
}

std::string json_ints(const std::vector<int>& items) {
  std::string out = "[";
  for (size_t k = 0; k < items.size(); ++k) out += (k ? "," : "") + std::to_string(items[k]);
  return out + "]";
}

// A float as JSON: the shortest text that reads back the same; 0 for what JSON cannot hold.
std::string json_number(float v) {
  if (!(v == v) || v > 3.4e38f || v < -3.4e38f) return "0";
  return fmt::format("{}", v);
}

std::string termination_text(uint8_t termination) {
  return termination < search::kTerminations
             ? search::termination_name(static_cast<search::Termination>(termination))
             : "termination " + std::to_string(termination);
}

// One game replayed into boards.
struct Viewed {
  std::vector<BoardPicture> boards;
  std::vector<std::string> problems;
};

class Replayer {
 public:
  Replayer(const io::CampaignReader& reader, const std::string& path)
      : rules_(make_record_rules(reader.meta(), path)) {
    frame_ = rules_->board_frame();
    if (!frame_)
      throw InputError(path + ": " + reader.meta().game +
                       " games have no board pictures in this build, so they export as tsv only");
  }
  const BoardFrame& frame() const { return *frame_; }
  const RecordRules& rules() const { return *rules_; }

  Viewed view(const ExportedGame& e) {
    Problems problems(8);
    // replay() expects plies numbered 0..n-1, each once (verify checks that first).
    const std::optional<StoredGame> stored = stored_game_of(e);
    Viewed v;
    if (!stored) {
      v.problems.push_back("its /plies rows are not plies 0 to " + std::to_string(e.game.plies) +
                           " - 1, each once (selfplay verify says more)");
      return v;
    }
    rules_->replay(*stored, problems);
    v.boards = rules_->take_boards(e.game.game_id);
    v.problems = problems.lines();
    if (problems.count() > problems.lines().size())
      v.problems.push_back("and " + std::to_string(problems.count() - problems.lines().size()) +
                           " more (selfplay verify lists them)");
    return v;
  }

 private:
  std::unique_ptr<RecordRules> rules_;
  std::optional<BoardFrame> frame_;
};

std::string frame_json(const BoardFrame& f) {
  return fmt::format(R"("style":{},"width":{},"height":{},"columns":{},"rows":{},"squares":{})",
                     json_string(f.style), f.width, f.height, json_list(f.columns),
                     json_list(f.rows), json_list(f.squares));
}

// The changes from board a to board b: "<square><character>" for each square that differs.
std::string delta(const std::string& a, const std::string& b) {
  std::string out;
  for (size_t k = 0; k < b.size(); ++k)
    if (k >= a.size() || a[k] != b[k]) out += std::to_string(k) + b[k];
  return out;
}

// A file name without its folders, for the page's title.
// A match file's result as `selfplay match` reports it: the engines, then W/D/L, pentanomial
// counts, Elo, LOS and the SPRT's state over the pairs /match/pairs counted; "" for a campaign.
std::string match_text(const io::CampaignReader& reader) {
  const io::FileMeta& meta = reader.meta();
  if (!meta.match) return "";
  const io::MatchMeta& m = *meta.match;
  const auto result = [](float score) {
    return score == 1.0f   ? stats::GameResult::kWin
           : score == 0.0f ? stats::GameResult::kLoss
                           : stats::GameResult::kDraw;
  };
  stats::PairCounter counter;
  for (const io::MatchPairRow& row : reader.match_pairs())
    counter.add_pair(result(row.result_1), result(row.result_2));
  const stats::SprtConfig sprt{m.sprt_elo0, m.sprt_elo1, m.sprt_alpha, m.sprt_beta};
  // Game 0 has engine A as player 0: its seats' labels are A's and B's.
  const std::array<std::string, 2> labels = Seats(meta).labels(0);
  const auto named = [](const std::string& label, const std::string& description) {
    return label.empty() ? description : label + " (" + description + ")";
  };
  return "engine A  " + named(labels[0], m.engine_a) + "\nengine B  " +
         named(labels[1], m.engine_b) + "\n" +
         stats::format_match_table(counter, m.sprt_enabled ? &sprt : nullptr) +
         fmt::format("pairs counted       {} of {}\n", counter.penta().pairs(), m.pairs);
}

std::string base_name(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    const size_t n = utf8_length(text, i);
    if (n == 0) {
      out += "\\ufffd";
      ++i;
      continue;
    }
    if (n == 3 && c == 0xE2 && static_cast<unsigned char>(text[i + 1]) == 0x80 &&
        (static_cast<unsigned char>(text[i + 2]) == 0xA8 ||
         static_cast<unsigned char>(text[i + 2]) == 0xA9)) {
      out += static_cast<unsigned char>(text[i + 2]) == 0xA8 ? "\\u2028" : "\\u2029";
      i += 3;
      continue;
    }
    if (n > 1) {
      out.append(text.substr(i, n));
      i += n;
      continue;
    }
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '<':
        out += "\\u003c";
        break;
      case '>':
        out += "\\u003e";
        break;
      case '&':
        out += "\\u0026";
        break;
      default:
        if (c < 0x20 || c == 0x7F)
          out += fmt::format("\\u{:04x}", c);
        else
          out += static_cast<char>(c);
    }
    ++i;
  }
  return out + "\"";
}

// The name of a /plies `search` kind ("mcts"; "none" for 0).
std::string search_name(uint8_t kind) {
  return search::search_kind_name(static_cast<search::SearchKind>(kind));
}

// Each ply's /candidates as a JSON list of [move, visits, value], best first ("[]" for none).
std::vector<std::string> candidate_lists(const ExportedGame& e) {
  std::vector<std::string> out(e.plies.size(), "[");
  for (const io::CandidateRow& c : e.candidates) {
    if (c.ply >= out.size()) continue;  // verify reports such a row
    std::string& list = out[c.ply];
    list += fmt::format("{}[{},{},{}]", list.size() > 1 ? "," : "",
                        json_string(io::text_of(c.move)), c.visits, json_number(c.value));
  }
  for (std::string& list : out) list += "]";
  return out;
}

std::string board_lines(const io::CampaignReader& reader, const std::string& path,
                        const std::vector<ExportedGame>& games) {
  Replayer replayer(reader, path);
  const Seats seats(reader.meta());
  const std::string frame = frame_json(replayer.frame());
  std::string out;
  for (const ExportedGame& e : games) {
    const Viewed v = replayer.view(e);
    const io::GameRow& g = e.game;
    const std::array<std::string, 2> players = seats.players(g.game_id);
    out += fmt::format(R"({{"game_id":{},"game":{},{},"opening":{},"first_player":{},"winner":{},)"
                       R"("termination":{},"players":{},"problems":{},"plies":[)",
                       g.game_id, json_string(reader.meta().game), frame,
                       json_string(io::text_of(g.opening)), static_cast<int>(g.first_player),
                       g.winner == 0 || g.winner == 1 ? g.winner : -1,
                       json_string(termination_text(g.termination)),
                       json_list({players[0], players[1]}), json_list(v.problems));
    const std::vector<std::string> candidates = candidate_lists(e);
    for (size_t k = 0; k < e.plies.size(); ++k) {
      const io::PlyRow& p = e.plies[k];
      out +=
          fmt::format(R"({}{{"ply":{},"player":{},"chance":{},"move":{},"visits":{},"value":{},)"
                      R"("rollouts":{},"time_ms":{},"search":{},"depth":{},"score":{},)"
                      R"("nodes":{},"played":{},"think_ms":{},"pv":{},"candidates":{}}})",
                      k ? "," : "", p.ply, static_cast<int>(p.player),
                      p.chance == io::kNoChance ? std::string("null") : std::to_string(p.chance),
                      json_string(io::text_of(p.move)), p.visits, json_number(p.root_value),
                      p.rollouts, json_number(p.time_ms), json_string(search_name(p.search)),
                      p.depth < 0 ? std::string("null") : std::to_string(p.depth),
                      p.depth < 0 ? std::string("null") : json_number(p.score), p.nodes, p.played,
                      json_number(p.think_ms), json_string(io::text_of(p.pv)), candidates[k]);
    }
    out += R"(],"boards":[)";
    for (size_t k = 0; k < v.boards.size(); ++k)
      out += (k ? "," : "") + json_string(v.boards[k].cells);
    out += R"(],"marks":[)";
    for (size_t k = 0; k < v.boards.size(); ++k)
      out += (k ? "," : "") + json_ints(v.boards[k].marks);
    out += "]}\n";
  }
  return out;
}

std::string html_viewer(const io::CampaignReader& reader, const std::string& path,
                        const std::vector<ExportedGame>& games) {
  Replayer replayer(reader, path);
  const Seats seats(reader.meta());
  const io::FileMeta& meta = reader.meta();

  // The engines, each named once; games refer to them by index.
  std::vector<std::string> engines;
  const auto engine_index = [&](const std::string& name) {
    for (size_t k = 0; k < engines.size(); ++k)
      if (engines[k] == name) return static_cast<int>(k);
    engines.push_back(name);
    return static_cast<int>(engines.size() - 1);
  };

  std::string list = "[";
  std::string details;
  for (size_t n = 0; n < games.size(); ++n) {
    const ExportedGame& e = games[n];
    const io::GameRow& g = e.game;
    const Viewed v = replayer.view(e);
    const std::array<std::string, 2> players = seats.players(g.game_id);
    const int winner = g.winner == 0 || g.winner == 1 ? g.winner : -1;
    list += fmt::format("{}[{},{},{},{},{},{},{},{}]", n ? "," : "", g.game_id, winner,
                        e.plies.size(), json_string(io::text_of(g.opening)),
                        engine_index(players[0]), engine_index(players[1]),
                        json_string(g.termination ? termination_text(g.termination) : ""),
                        static_cast<int>(g.first_player));
    std::string moves = "[", chances = "[", visits = "[", values = "[", rollouts = "[", times = "[",
                searches = "[", candidates = "[";
    bool any_chance = false, any_visits = false, any_value = false, any_rollouts = false,
         any_time = false, any_search = false;
    const std::vector<std::string> lists = candidate_lists(e);
    for (size_t k = 0; k < e.plies.size(); ++k) {
      const io::PlyRow& p = e.plies[k];
      const char* sep = k ? "," : "";
      moves += sep + json_string(io::text_of(p.move));
      chances += sep + std::to_string(p.chance);
      visits += sep + std::to_string(p.visits);
      values += sep + json_number(p.root_value);
      rollouts += sep + std::to_string(p.rollouts);
      times += sep + json_number(p.time_ms);
      any_chance |= p.chance != io::kNoChance;
      any_visits |= p.visits != 0;
      any_value |= p.root_value != 0;
      any_rollouts |= p.rollouts != 0;
      any_time |= p.time_ms != 0;
      // [kind, depth (-1 none), score, nodes, rollouts played, think ms, pv]
      searches += sep + fmt::format("[{},{},{},{},{},{},{}]", json_string(search_name(p.search)),
                                    p.depth, json_number(p.score), p.nodes, p.played,
                                    json_number(p.think_ms), json_string(io::text_of(p.pv)));
      candidates += sep + lists[k];
      any_search |= p.search != 0;
    }
    std::string d;
    for (size_t k = 1; k < v.boards.size(); ++k)
      d += (k > 1 ? ";" : "") + delta(v.boards[k - 1].cells, v.boards[k].cells);
    std::string marks;
    for (size_t k = 0; k < v.boards.size(); ++k)
      if (!v.boards[k].marks.empty())
        marks +=
            fmt::format("{}[{},{}]", marks.empty() ? "" : ",", k, json_ints(v.boards[k].marks));
    details += fmt::format(R"({{"b":{},"n":{},"d":{},"m":{}])",
                           json_string(v.boards.empty() ? std::string() : v.boards[0].cells),
                           v.boards.size(), json_string(d), moves);
    if (any_chance) details += R"(,"c":)" + chances + "]";
    if (any_visits) details += R"(,"v":)" + visits + "]";
    if (any_value) details += R"(,"q":)" + values + "]";
    if (any_rollouts) details += R"(,"r":)" + rollouts + "]";
    if (any_time) details += R"(,"t":)" + times + "]";
    if (any_search) details += R"(,"s":)" + searches + R"(],"x":)" + candidates + "]";
    if (!marks.empty()) details += R"(,"k":[)" + marks + "]";
    if (!v.problems.empty()) details += R"(,"p":)" + json_list(v.problems);
    details += "}\n";
  }
  list += "]";

  const std::string header = fmt::format(
      R"({{"file":{},"game":{},"rules":{},"kind":{},"host":{},"start_time":{},"program":{},)"
      R"("exported_by":{},"match":{},"games":{},"engines":{},"frame":{{{}}}}})",
      json_string(base_name(path)), json_string(meta.game), json_string(meta.rules),
      json_string(meta.match ? "match" : "campaign"), json_string(meta.host),
      json_string(meta.start_time), json_string(program_of(meta)),
      json_string(build::program_text()), json_string(match_text(reader)), games.size(),
      json_list(engines), frame_json(replayer.frame()));

  std::string html;
  html.reserve(details.size() + list.size() + 64 * 1024);
  html += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  html +=
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      "style-src 'unsafe-inline'; img-src data:; script-src 'sha256-" +
      base64_of_hex(kViewerScriptSha256) + "'\">\n";
  html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  // The script sets the title from the file name, as text.
  html += "<title>selfplay viewer</title>\n<style>";
  html += kViewerStyle;
  html += "</style>\n</head>\n<body>\n";
  html +=
      "<noscript>This viewer draws the games with its script; allow scripts for this "
      "file.</noscript>\n";
  html += "<script type=\"application/json\" id=\"sp-meta\">" + header + "</script>\n";
  html += "<script type=\"application/json\" id=\"sp-list\">" + list + "</script>\n";
  html += "<script type=\"text/plain\" id=\"sp-games\">\n" + details + "</script>\n";
  html += "<script>";
  html += kViewerScript;
  html += "</script>\n</body>\n</html>\n";
  return html;
}

}  // namespace sp::selfplay
