#include <set>

#include "core/errors.hpp"
#include "host/app/commands.hpp"

namespace sp::app {

CLI::Option* add_key_value_option(CLI::App& cmd, const std::string& name,
                                  std::vector<std::string>& values, const std::string& help) {
  // One KEY=VALUE per occurrence: `--rule a=1 pos` must not swallow a positional argument.
  return cmd.add_option(name, values, help)->type_name("KEY=VALUE")->allow_extra_args(false);
}

YAML::Node key_value_map(const std::vector<std::string>& values, const std::string& option) {
  YAML::Node map(YAML::NodeType::Map);
  std::set<std::string> seen;
  config::Document doc(option);
  for (const std::string& text : values) {
    const size_t eq = text.find('=');
    if (eq == std::string::npos || eq == 0)
      doc.fail({}, "", "expected KEY=VALUE, found '" + excerpt(text) + "'");
    const std::string key = text.substr(0, eq);
    if (!seen.insert(key).second) doc.fail({}, excerpt(key, 40), "given twice; give each key once");
    map[key] = text.substr(eq + 1);
  }
  return map;
}

}  // namespace sp::app
