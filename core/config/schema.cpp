#include "core/config/schema.hpp"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <system_error>

namespace sp::config {
namespace {

Mark to_mark(const YAML::Mark& m) {
  if (m.line < 0 || m.column < 0) return Mark{};
  return Mark{m.line + 1, m.column + 1};
}

// A value as quoted in messages: short (a key or a value, not a document), one line, control
// bytes escaped.
std::string shown(std::string_view s) {
  constexpr size_t kMax = 40;
  return excerpt(s, kMax);
}

std::string quoted(std::string_view s) {
  std::string out(1, '\'');  // appended, not "'" + ...: GCC 12 warns falsely on that (-Wrestrict)
  out += shown(s);
  out += '\'';
  return out;
}

std::string describe(const YAML::Node& v) {
  switch (v.Type()) {
    case YAML::NodeType::Scalar:
      return config::quoted(v.Scalar());  // qualified: std::quoted is found by ADL
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Map:
      return "a map";
    default:
      return "nothing (an empty value)";
  }
}

std::string list(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

const std::string& scalar(const YAML::Node& v, Mark at, const Document& doc,
                          const std::string& path, std::string_view expected) {
  if (!v.IsScalar())
    doc.fail(at, path, "expected " + std::string(expected) + ", found " + describe(v));
  return v.Scalar();
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Where the first documents of text start. yaml-cpp 0.7 does not consume a token it cannot
// start a node with (a ',' in block context) and then yields the same empty document forever,
// which is why YAML::LoadAll hangs (jbeder/yaml-cpp#1040); a document starting where the
// previous one did marks that spot. Bounded: at most three documents are read.
struct DocumentStarts {
  std::vector<YAML::Mark> marks;
  std::optional<YAML::Mark> stuck;
};

DocumentStarts document_starts(const std::string& text) {
  struct Handler : YAML::EventHandler {
    std::vector<YAML::Mark> marks;
    void OnDocumentStart(const YAML::Mark& mark) override { marks.push_back(mark); }
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
    void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
    void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  const std::string&) override {}
    void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                         YAML::EmitterStyle::value) override {}
    void OnSequenceEnd() override {}
    void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                    YAML::EmitterStyle::value) override {}
    void OnMapEnd() override {}
  } handler;
  std::istringstream in(text);
  YAML::Parser parser(in);
  DocumentStarts out;
  for (int docs = 0; docs < 3 && parser.HandleNextDocument(handler); ++docs) {
    const auto& m = handler.marks;
    if (m.size() >= 2 && m[m.size() - 1].pos == m[m.size() - 2].pos) {
      out.stuck = m.back();
      break;
    }
  }
  out.marks = handler.marks;
  return out;
}

}  // namespace

std::string Range::to_string() const {
  const auto bound = [](double v) {  // as written in math, 100 rather than 100.0
    char buf[64];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, ec == std::errc() ? end : buf);
  };
  return std::string(lo_open ? "(" : "[") + bound(lo) + ", " + bound(hi) + (hi_open ? ")" : "]");
}

YAML::Node Document::parse(const std::string& text) {
  YAML::Node root;
  DocumentStarts starts;
  try {
    root = YAML::Load(text);  // the first document only
    starts = document_starts(text);
  } catch (const YAML::DeepRecursion& e) {
    fail(to_mark(e.mark), "", "YAML nesting is too deep");
  } catch (const YAML::ParserException& e) {
    fail(to_mark(e.mark), "", "YAML syntax error: " + e.msg);
  } catch (const YAML::Exception& e) {
    fail(to_mark(e.mark), "", "YAML error: " + e.msg);
  }
  if (starts.stuck) {
    const auto pos = static_cast<size_t>(std::max(starts.stuck->pos, 0));
    fail(to_mark(*starts.stuck), "",
         "YAML syntax error: unexpected " + (pos < text.size() ? config::quoted(text.substr(pos, 1))
                                                               : std::string("end of file")));
  }
  if (starts.marks.size() > 1)
    fail(to_mark(starts.marks[1]), "", "a second YAML document ('---'); a config is one document");
  if (root.IsNull())
    fail(starts.marks.empty() ? Mark{1, 1} : detail::mark_of(root), "",
         "empty configuration: the file has no keys");
  if (!root.IsMap())
    fail(detail::mark_of(root), "",
         "the top level must be a map of keys (game, rules, ...), found " + describe(root));
  return root;
}

void Document::fail(Mark at, std::string_view path, std::string_view what) const {
  std::string message = name_;
  if (at.line > 0) message += ":" + std::to_string(at.line) + ":" + std::to_string(at.column);
  message += ": ";
  if (!path.empty()) message += "key '" + std::string(path) + "': ";
  message += what;
  throw ConfigError(message);
}

void Document::fail_key(std::string_view path, std::string_view what) const {
  std::string_view p = path;
  for (;;) {
    if (const auto it = marks_.find(p); it != marks_.end()) fail(it->second, path, what);
    if (p.empty()) break;
    const size_t dot = p.rfind('.');
    p = dot == std::string_view::npos ? std::string_view() : p.substr(0, dot);
  }
  fail(Mark{}, path, what);
}

size_t edit_distance(std::string_view a, std::string_view b) {
  // Optimal string alignment: Levenshtein plus transposition of adjacent characters.
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

std::string closest_match(std::string_view name, const std::vector<std::string>& candidates) {
  constexpr size_t kLongest = 64;  // longer text is no typo of a key; skip the quadratic work
  if (name.empty() || name.size() > kLongest) return "";
  const std::string folded = lower(name);
  std::string best;
  size_t best_score = SIZE_MAX;
  for (const auto& c : candidates) {
    const size_t d = edit_distance(folded, c);
    const size_t limit = std::max(name.size(), c.size()) >= 8 ? 3 : 2;
    const bool typo = d <= limit && 2 * d <= name.size();
    const bool prefix = name.size() >= 4 && c.starts_with(folded);
    if (!typo && !prefix) continue;
    const size_t score = typo ? d : limit;
    if (score < best_score) best = c, best_score = score;
  }
  return best;
}

namespace detail {

Mark mark_of(const YAML::Node& node) { return to_mark(node.Mark()); }

std::string join(const std::string& path, const std::string& name) {
  return path.empty() ? name : path + "." + name;
}

bool parse_integer(std::string_view s, bool& negative, uint64_t& magnitude, bool& overflow) {
  negative = false;
  overflow = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  }
  if (s.empty() || !std::isxdigit(static_cast<unsigned char>(s[0]))) return false;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), magnitude, base);
  // On overflow from_chars still consumes every digit and reports result_out_of_range.
  if (end != s.data() + s.size()) return false;
  overflow = ec == std::errc::result_out_of_range;
  return true;
}

bool parse_real(std::string_view s, double& value, bool& out_of_range) {
  if (s.size() > 1 && s[0] == '+') s.remove_prefix(1);  // from_chars takes no '+'
  value = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (end != s.data() + s.size() || (ec != std::errc() && ec != std::errc::result_out_of_range))
    return false;
  out_of_range = ec == std::errc::result_out_of_range;
  return true;
}

std::string resolve_path(const std::string& document, const std::string& path) {
  namespace fs = std::filesystem;
  fs::path p(path);
  if (p.is_relative()) p = fs::path(document).parent_path() / p;
  return fs::absolute(p).lexically_normal().string();
}

bool read_bool(const YAML::Node& v, Mark at, const Document& doc, const std::string& path) {
  const std::string s = lower(scalar(v, at, doc, path, "true or false"));
  if (s == "true" || s == "yes" || s == "on") return true;
  if (s == "false" || s == "no" || s == "off") return false;
  doc.fail(at, path, "expected true or false, found " + describe(v));
}

int64_t read_integer(const YAML::Node& v, Mark at, const Document& doc, const std::string& path,
                     int64_t lo, int64_t hi) {
  const std::string& s = scalar(v, at, doc, path, "an integer");
  bool negative = false, overflow = false;
  uint64_t magnitude = 0;
  if (!parse_integer(s, negative, magnitude, overflow))
    doc.fail(at, path, "expected an integer, found " + describe(v));
  constexpr uint64_t kMinMagnitude = uint64_t{1} << 63;  // of INT64_MIN
  int64_t value = 0;
  bool fits = !overflow && magnitude <= (negative ? kMinMagnitude : kMinMagnitude - 1);
  if (fits) {
    value = !negative                    ? static_cast<int64_t>(magnitude)
            : magnitude == kMinMagnitude ? std::numeric_limits<int64_t>::min()
                                         : -static_cast<int64_t>(magnitude);
    fits = lo <= value && value <= hi;
  }
  if (!fits)
    doc.fail(
        at, path,
        "must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], found " + shown(s));
  return value;
}

uint64_t read_seed(const YAML::Node& v, Mark at, const Document& doc, const std::string& path) {
  const std::string& s = scalar(v, at, doc, path, "an integer");
  bool negative = false, overflow = false;
  uint64_t magnitude = 0;
  if (!parse_integer(s, negative, magnitude, overflow))
    doc.fail(at, path, "expected an integer, found " + describe(v));
  if (overflow || (negative && magnitude != 0))
    doc.fail(at, path, "must be in [0, 18446744073709551615], found " + shown(s));
  return magnitude;
}

double read_real(const YAML::Node& v, Mark at, const Document& doc, const std::string& path,
                 const Range& range) {
  const std::string& s = scalar(v, at, doc, path, "a number");
  double value = 0;
  bool out_of_range = false;
  if (!parse_real(s, value, out_of_range))
    doc.fail(at, path, "expected a number, found " + describe(v));
  if (out_of_range || !range.contains(value))
    doc.fail(at, path, "must be in " + range.to_string() + ", found " + shown(s));
  return value;
}

std::string read_string(const YAML::Node& v, Mark at, const Document& doc, const std::string& path,
                        bool allow_empty) {
  const std::string& s = scalar(v, at, doc, path, "text");
  if (!allow_empty && s.empty()) doc.fail(at, path, "must not be empty");
  return s;
}

size_t read_choice(const YAML::Node& v, Mark at, const Document& doc, const std::string& path,
                   const std::vector<std::string>& choices) {
  // YAML reads a bare `null` as no value at all: a choice named "null" must be quoted.
  if (v.IsNull() && std::find(choices.begin(), choices.end(), "null") != choices.end())
    doc.fail(at, path,
             "expected one of " + list(choices) +
                 ", found nothing (an empty value, or YAML's null: write \"null\" in quotes)");
  const std::string& s = scalar(v, at, doc, path, "one of " + list(choices));
  for (size_t i = 0; i < choices.size(); ++i)
    if (choices[i] == s) return i;
  std::string what = "must be one of " + list(choices) + "; found " + describe(v);
  if (const std::string hint = closest_match(s, choices); !hint.empty())
    what += ", did you mean '" + hint + "'?";
  doc.fail(at, path, what);
}

void read_map(
    const YAML::Node& node, Mark at, Document& doc, const std::string& path,
    const std::vector<std::string>& names,
    const std::function<void(size_t, const YAML::Node&, Mark, const std::string&)>& visit) {
  if (node.IsNull()) return;
  if (!node.IsMap())
    doc.fail(at, path, "expected a map with keys " + list(names) + ", found " + describe(node));
  std::map<std::string, Mark> seen;
  for (auto it = node.begin(); it != node.end(); ++it) {
    const YAML::Node key = it->first;  // the iterator yields a temporary pair
    const YAML::Node value = it->second;
    const Mark key_at = mark_of(key);
    if (!key.IsScalar())
      doc.fail(key_at, path, "keys must be plain names, found " + describe(key) + " as a key");
    const std::string& name = key.Scalar();
    const std::string key_path = join(path, name);
    if (const auto first = seen.find(name); first != seen.end())
      doc.fail(key_at, key_path,
               "duplicate key (first set at line " + std::to_string(first->second.line) + ")");
    seen.emplace(name, key_at);
    const auto found = std::find(names.begin(), names.end(), name);
    if (found == names.end()) {
      const std::string hint = closest_match(name, names);
      doc.fail(key_at, join(path, shown(name)),
               hint.empty() ? "unknown key (known keys here: " + list(names) + ")"
                            : "unknown key, did you mean '" + hint + "'?");
    }
    // An empty value's own mark points past the line; the key's is where the reader looks.
    const Mark value_at = value.IsNull() ? key_at : mark_of(value);
    doc.record(key_path, value_at);
    visit(static_cast<size_t>(found - names.begin()), value, value_at, key_path);
  }
}

std::string format_real(double v) {
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);  // shortest that reads back
  std::string out = ec == std::errc() ? std::string(buf, end) : std::string("nan");
  if (out.find_first_not_of("-0123456789") == std::string::npos) out += ".0";  // looks real
  return out;
}

std::string quote(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

void emit(std::string& out, int indent, const std::vector<Entry>& entries) {
  constexpr size_t kMaxWidth = 40;  // comments align unless a value is very long
  size_t width = 0;
  for (const Entry& e : entries)
    width = std::max(width, e.name.size() + 1 + (e.children ? 0 : 1 + e.value.size()));
  width = std::min(width, kMaxWidth);
  for (const Entry& e : entries) {
    std::string line(static_cast<size_t>(indent), ' ');
    line += e.name + ":";
    if (!e.children) line += " " + e.value;
    line.resize(std::max(line.size(), static_cast<size_t>(indent) + width), ' ');
    out += line + "  # " + e.comment + "\n";
    if (e.children) e.children(out, indent + 2);
  }
}

}  // namespace detail
std::string read_config_file(const std::string& path) {
  constexpr size_t kMaxBytes = 1 << 20;
  const auto fail = [&](const std::string& why) {
    return ConfigError("cannot read " + excerpt(path) + ": " + why);
  };
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"),
                                                       &std::fclose);
  if (!file) throw fail(std::strerror(errno));
  std::string text;
  char buf[4096];
  size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, file.get())) > 0) {
    text.append(buf, n);
    if (text.size() > kMaxBytes) throw fail("larger than 1 MiB; not a config file");
  }
  if (std::ferror(file.get())) throw fail(std::strerror(errno));
  return text;
}

}  // namespace sp::config
