// `selfplay improve` on several ranks (mpirun, srun): rank 0 runs the loop (the fits, the
// lineage, the champion file) and every other rank follows it. Before each campaign or match
// rank 0 writes that step's config (DIR/gen-NNN/campaign.yaml, gate.yaml, anchor.yaml) and orders
// the followers to play it; each follower loads the file and plays its share through the ranked
// campaign or match (host/play/ranks/campaign_ranks.hpp, match_ranks.hpp), so a step's records are
// those of one process. The directory must be on a filesystem every rank sees, as the rank files
// of campaigns and matches already require.
//
// An order goes out only when every follower has said it is ready (after its previous step
// returned, on a channel of its own), so it cannot land in the message loop of a step still
// ending; what a step's dealer sent a follower after its end is dropped before the order. Nothing
// blocks: the waits poll and sleep.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

namespace sp::improve {

enum class OrderKind : uint8_t { kCampaign = 1, kMatch = 2, kEnd = 3 };

struct StepOrder {
  OrderKind kind = OrderKind::kEnd;
  bool resume = false;  // the step's output is there: continue it
  std::string config;   // the step's config file (campaign or match), as rank 0 wrote it
};

// Whether the loop's steps go through the ranks (several ranks).
bool ranked_loop();

// Rank 0: waits until every follower is ready, then sends them the order. Does nothing on one
// rank. Throws std::runtime_error on a message it cannot read.
void send_order(const StepOrder& order);

// A follower (rank > 0): says it is ready and waits for rank 0's next order.
StepOrder wait_order();

}  // namespace sp::improve
