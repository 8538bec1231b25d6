// The pictures of stored games: `selfplay export --format html`, a replay viewer in one
// self-contained HTML page, and `--format boards`, every ply's board as JSON lines for scripts
// and the notebooks (notebooks/selfplay_data.py draws them). The boards come from replaying each
// game through the rules (RecordRules, record_rules.hpp) and the game's pictures
// (core/game_host.hpp PictureGame); the viewer's script only draws them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "host/base/hdf5/campaign_file.hpp"
#include "host/records/stored_games.hpp"

namespace sp::selfplay {

// One HTML page that needs nothing else: no network, no external script, style or font (a
// Content-Security-Policy allows only its own script, by hash, and blocks every request). It
// lists the games (filtered by winner, length, opening and engine, a page at a time) and replays
// the chosen one: the board drawn as SVG, the move list, first/back/step/last buttons and the
// arrow keys (left/right a ply, Home/End, up/down the previous/next game), the chance outcome in
// chance games (EWN's die), the pieces each side has lost (checkers), the last move and a Gomoku
// game's winning row, and the search statistics the file stores per ply (visits, value,
// rollouts, time) where it has them. A game whose record does not replay shows its boards up to
// the first ply that does not play and the problem in words. Every stored text is data, shown as
// text: none of it can become markup or script. Games are kept as text until one is opened, so
// that large files stay quick (docs/records.md, "Viewing games").
std::string html_viewer(const io::CampaignReader& reader, const std::string& path,
                        const std::vector<ExportedGame>& games);

// One JSON object per game and line, in the order of `games`:
//   {"game_id":17,"game":"gomoku","style":"gomoku","width":15,"height":15,
//    "columns":["a",...],"rows":["1",...],"squares":[...],"opening":"...","first_player":0,
//    "winner":1,"termination":"rules","players":["...","..."],"problems":[],
//    "plies":[{"ply":0,"player":0,"chance":null,"move":"h8","visits":0,"value":0,
//              "rollouts":0,"time_ms":0.0},...],
//    "boards":["....",...],"marks":[[],...]}
// `boards` holds the board before each ply and after the last (one more than `plies`, fewer when
// the replay stopped at a ply it could not play, which `problems` then says), each
// width*height characters in the style's alphabet (game_host.hpp BoardFrame); `marks` the marked
// squares of each board; `winner` -1 for a draw; `chance` the stored chance outcome (EWN's die)
// or null. Throws InputError naming the path for a game without board pictures.
std::string board_lines(const io::CampaignReader& reader, const std::string& path,
                        const std::vector<ExportedGame>& games);

// `text` as a JSON string literal, quotes included, safe inside an HTML script element: '<', '>'
// and '&' are escaped too, as are U+2028 and U+2029, and bytes that are not UTF-8 become U+FFFD.
std::string json_string(std::string_view text);

}  // namespace sp::selfplay
