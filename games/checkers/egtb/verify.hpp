// Checking built checkers endgame databases (`selfplay egtb verify`): each position of each table
// of a folder against its successors' stored values (a win has a lost successor, a draw no lost
// and a drawn one, a loss only won successors or none) and, where the table has its plies file,
// against their levels (a win has a lost successor of a lower level or a winning conversion, a
// loss's every move that does not convert leads lower).
#pragma once

#include <functional>
#include <string>

#include "core/endgame.hpp"
#include "games/checkers/egtb/tables.hpp"

namespace sp::checkers::egtb {

EndgameVerifyResult verify(const std::string& dir, const ParallelFor& parallel_for,
                           const std::function<void(const EndgameProgress&)>& progress);

}  // namespace sp::checkers::egtb
