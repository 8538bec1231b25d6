// Loading and explaining campaign configs (YAML). The keys, their types, ranges, defaults and
// help lines are declared once, in campaign_schema.cpp; configs/ewn/campaign.yaml is the example.
#pragma once

#include <string>

#include "host/config/campaign_config.hpp"
#include "host/config/schema.hpp"

namespace sp::config {

// Reads the YAML file at path: every key omitted there takes its default. Throws ConfigError
// (an sp::InputError) "FILE:LINE:COLUMN: key 'a.b': what is wrong" for any unusable input, and
// "cannot read FILE: reason" when the file cannot be read. Fills source_path and source_text.
CampaignConfig load_campaign_config(const std::string& path);

// The same for YAML text; name stands for the file in messages and in source_path.
CampaignConfig load_campaign_config_text(const std::string& text, const std::string& name);

// The effective configuration as YAML: every key, defaults filled in, each with its help line and
// type as a comment. Loading the output gives back an identical config (source fields aside).
std::string explain_campaign_config(const CampaignConfig& config);

// Match configs (selfplay match): the campaign keys without campaign.games and campaign.paired,
// plus a `match:` section (pairs, sprt). engines.player0 is engine A, engines.player1 engine B.
// The result has paired = true and games = 2 * match.pairs. Errors as for campaign configs.
CampaignConfig load_match_config(const std::string& path);
CampaignConfig load_match_config_text(const std::string& text, const std::string& name);
std::string explain_match_config(const CampaignConfig& config);

}  // namespace sp::config
