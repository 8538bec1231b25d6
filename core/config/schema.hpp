// A small declarative schema for YAML configs. Each key is declared once, on a Section<T> bound to
// a struct T: name, type (with range or choices), default and one line of help. The same
// declaration reads YAML into T (defaults first, then the file), reports every mistake as a
// ConfigError "FILE:LINE:COLUMN: key 'a.b.c': what is wrong", and writes T back as commented YAML.
//
// Fields are named by a "getter": a pointer to member of T or a callable taking T& and returning
// a reference to the field (for fields nested deeper than the YAML layout), used via std::invoke.
#pragma once

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/errors.hpp"

namespace sp::config {

// A configuration file that cannot be used. The message names file, line, column and key.
class ConfigError : public InputError {
 public:
  using InputError::InputError;
};

// A 1-based position in the YAML text; line 0 when unknown.
struct Mark {
  int line = 0;
  int column = 0;
};

// An interval of real numbers; either end may be open.
struct Range {
  double lo = 0, hi = 0;
  bool lo_open = false, hi_open = false;
  bool contains(double v) const {
    return (lo_open ? v > lo : v >= lo) && (hi_open ? v < hi : v <= hi);  // false for NaN
  }
  std::string to_string() const;  // "(0, 100]"
};

// One document being read: its name for messages and the marks of every key it set.
class Document {
 public:
  explicit Document(std::string name) : name_(std::move(name)) {}
  const std::string& name() const { return name_; }

  // Parses text as exactly one YAML document whose top level is a map; throws ConfigError for
  // syntax errors, an empty file, several documents or another top-level type.
  YAML::Node parse(const std::string& text);

  // Throws ConfigError "NAME:LINE:COLUMN: key 'PATH': WHAT" (without the key part when path is
  // empty, without line and column when the mark is unknown).
  [[noreturn]] void fail(Mark at, std::string_view path, std::string_view what) const;
  // For checks that span keys: fails at the value recorded for path, or else at the nearest
  // enclosing section written in the file (the key defaulted), or else at the top of the file.
  [[noreturn]] void fail_key(std::string_view path, std::string_view what) const;

  void record(const std::string& path, Mark at) { marks_[path] = at; }
  // Lenient documents accept keys that do not apply (only_if): configs stored by older versions,
  // which wrote every key of every engine type.
  void set_lenient(bool lenient) { lenient_ = lenient; }
  bool lenient() const { return lenient_; }
  bool was_set(std::string_view path) const { return marks_.find(path) != marks_.end(); }

 private:
  std::string name_;
  std::map<std::string, Mark, std::less<>> marks_;
  bool lenient_ = false;
};

namespace detail {

Mark mark_of(const YAML::Node& node);
std::string join(const std::string& path, const std::string& name);

// The number syntax of configs, shared with the command line. An integer is [+|-] followed by
// decimal digits or 0x and hex digits (no octal, no spaces): false when text is not one; overflow
// is set when the magnitude does not fit in 64 bits. A real is what std::from_chars reads, with an
// optional leading '+' ("nan" and "inf" included: ranges reject them): false when text is not
// one; out_of_range is set when it overflows or underflows a double.
bool parse_integer(std::string_view text, bool& negative, uint64_t& magnitude, bool& overflow);
bool parse_real(std::string_view text, double& value, bool& out_of_range);

// Validated scalar readers: each fails through doc with the key's path and the value's mark.
bool read_bool(const YAML::Node& v, Mark at, const Document& doc, const std::string& path);
int64_t read_integer(const YAML::Node& v, Mark at, const Document& doc, const std::string& path,
                     int64_t lo, int64_t hi);
uint64_t read_seed(const YAML::Node& v, Mark at, const Document& doc, const std::string& path);
double read_real(const YAML::Node& v, Mark at, const Document& doc, const std::string& path,
                 const Range& range);
std::string read_string(const YAML::Node& v, Mark at, const Document& doc, const std::string& path,
                        bool allow_empty);
// Index of the value among choices.
size_t read_choice(const YAML::Node& v, Mark at, const Document& doc, const std::string& path,
                   const std::vector<std::string>& choices);

// Walks the entries of a map node: rejects non-map values, non-scalar and duplicate keys, and
// unknown keys (with a "did you mean" hint), then calls visit(index into names, value, value
// mark, key path) for each entry. A null value is an empty section.
void read_map(
    const YAML::Node& node, Mark at, Document& doc, const std::string& path,
    const std::vector<std::string>& names,
    const std::function<void(size_t, const YAML::Node&, Mark, const std::string&)>& visit);

// path made absolute: relative paths are taken relative to the directory of the file `document`.
std::string resolve_path(const std::string& document, const std::string& path);

// YAML text for scalars, chosen so that reading it back gives the same value.
std::string format_real(double v);
std::string quote(std::string_view s);

// One line of explain output: a scalar key (value non-empty) or a section (children writes it).
struct Entry {
  std::string name, value, comment;
  std::function<void(std::string& out, int indent)> children;
};
void emit(std::string& out, int indent, const std::vector<Entry>& entries);

}  // namespace detail

// The edit distance (insertions, deletions, substitutions, adjacent swaps) between two names.
size_t edit_distance(std::string_view a, std::string_view b);
// The candidate closest to name when it is a likely typo of it (or name is a prefix of it); "".
std::string closest_match(std::string_view name, const std::vector<std::string>& candidates);

// One key of a Section as tools that set keys one at a time see it (SPSA:
// host/research/tune/spsa_game.hpp).
struct KeyInfo {
  std::string name;
  std::string type;          // as explain() writes it: "number in [0, 100]"
  bool real = false;         // a real or fixed_point key: any number in its range may be set
  bool applies = true;       // to the value it was asked about (only_if)
  std::string applies_text;  // only_if's text ("for type mcts"); "" for a key that always applies
};

// The keys of one YAML map, bound to the fields of T. Declaring a key gives its name, getter,
// default, type and help; sections nest, and a nested section may be bound to T itself (the YAML
// groups keys that the struct keeps flat). Build once, then use as const.
template <class T>
class Section {
  template <class Get>
  using Field = std::remove_cvref_t<std::invoke_result_t<Get, T&>>;

 public:
  // Integer keys: the field may be any integral type that holds [lo, hi].
  template <class Get>
  Section& integer(std::string name, Get get, int64_t def, int64_t lo, int64_t hi,
                   std::string help) {
    using F = Field<Get>;
    static_assert(std::is_integral_v<F> && !std::is_same_v<F, bool>);
    assert(lo <= def && def <= hi);
    assert(lo >= static_cast<int64_t>(std::numeric_limits<F>::min()));
    assert(static_cast<uint64_t>(hi) <= static_cast<uint64_t>(std::numeric_limits<F>::max()));
    Key k{std::move(name), std::move(help),
          "integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]"};
    k.reset = [get, def](T& t) { std::invoke(get, t) = static_cast<F>(def); };
    k.read = [get, lo, hi](T& t, const YAML::Node& v, Mark at, Document& doc,
                           const std::string& path) {
      std::invoke(get, t) = static_cast<F>(detail::read_integer(v, at, doc, path, lo, hi));
    };
    k.format = [get](const T& t) { return std::to_string(view(get, t)); };
    return add(std::move(k));
  }

  // A 64-bit seed: any integer in [0, 2^64), decimal or 0x hex.
  template <class Get>
  Section& seed(std::string name, Get get, uint64_t def, std::string help) {
    static_assert(std::is_same_v<Field<Get>, uint64_t>);
    Key k{std::move(name), std::move(help), "integer in [0, 2^64), decimal or 0x hex"};
    k.reset = [get, def](T& t) { std::invoke(get, t) = def; };
    k.read = [get](T& t, const YAML::Node& v, Mark at, Document& doc, const std::string& path) {
      std::invoke(get, t) = detail::read_seed(v, at, doc, path);
    };
    k.format = [get](const T& t) { return std::to_string(view(get, t)); };
    return add(std::move(k));
  }

  template <class Get>
  Section& boolean(std::string name, Get get, bool def, std::string help) {
    static_assert(std::is_same_v<Field<Get>, bool>);
    Key k{std::move(name), std::move(help), "true | false"};
    k.reset = [get, def](T& t) { std::invoke(get, t) = def; };
    k.read = [get](T& t, const YAML::Node& v, Mark at, Document& doc, const std::string& path) {
      std::invoke(get, t) = detail::read_bool(v, at, doc, path);
    };
    k.format = [get](const T& t) { return std::string(view(get, t) ? "true" : "false"); };
    return add(std::move(k));
  }

  template <class Get>
  Section& real(std::string name, Get get, double def, Range range, std::string help) {
    static_assert(std::is_same_v<Field<Get>, double>);
    assert(range.contains(def));
    Key k{std::move(name), std::move(help), "number in " + range.to_string()};
    k.real = true;
    k.reset = [get, def](T& t) { std::invoke(get, t) = def; };
    k.read = [get, range](T& t, const YAML::Node& v, Mark at, Document& doc,
                          const std::string& path) {
      std::invoke(get, t) = detail::read_real(v, at, doc, path, range);
    };
    k.format = [get](const T& t) { return detail::format_real(view(get, t)); };
    return add(std::move(k));
  }

  // A real number in YAML, stored as an unsigned fixed-point integer round(v * one). Values that
  // round to 0 are rejected when the range excludes 0.
  template <class Get>
  Section& fixed_point(std::string name, Get get, double def, Range range, uint32_t one,
                       std::string help) {
    using F = Field<Get>;
    static_assert(std::is_unsigned_v<F> && !std::is_same_v<F, bool>);
    assert(range.contains(def) && range.lo >= 0);
    assert(range.hi * one <= static_cast<double>(std::numeric_limits<F>::max()));
    Key k{std::move(name), std::move(help),
          "number in " + range.to_string() + ", kept in steps of 1/" + std::to_string(one)};
    k.real = true;
    k.reset = [get, def, one](T& t) { std::invoke(get, t) = to_fixed<F>(def, one); };
    k.read = [get, range, one](T& t, const YAML::Node& v, Mark at, Document& doc,
                               const std::string& path) {
      const double real = detail::read_real(v, at, doc, path, range);
      const F fixed = to_fixed<F>(real, one);
      if (fixed == 0 && !range.contains(0))
        doc.fail(at, path,
                 "too small: " + detail::format_real(real) + " rounds to 0 in steps of 1/" +
                     std::to_string(one) + "; the smallest value is " +
                     detail::format_real(1.0 / one));
      std::invoke(get, t) = fixed;
    };
    k.format = [get, one](const T& t) {
      return detail::format_real(static_cast<double>(view(get, t)) / one);
    };
    return add(std::move(k));
  }

  template <class Get>
  Section& string(std::string name, Get get, std::string def, bool allow_empty, std::string help) {
    static_assert(std::is_same_v<Field<Get>, std::string>);
    assert(allow_empty || !def.empty());
    Key k{std::move(name), std::move(help), allow_empty ? "text" : "non-empty text"};
    k.reset = [get, def](T& t) { std::invoke(get, t) = def; };
    k.read = [get, allow_empty](T& t, const YAML::Node& v, Mark at, Document& doc,
                                const std::string& path) {
      std::invoke(get, t) = detail::read_string(v, at, doc, path, allow_empty);
    };
    k.format = [get](const T& t) { return detail::quote(view(get, t)); };
    return add(std::move(k));
  }

  // One of a fixed set of names, each standing for a value of the field (an enum or a string).
  template <class Get>
  Section& choice(std::string name, Get get, Field<Get> def,
                  std::vector<std::pair<std::string, Field<Get>>> choices, std::string help) {
    std::vector<std::string> names;
    std::string type;
    for (const auto& c : choices) {
      type += (names.empty() ? "" : " | ") + c.first;
      names.push_back(c.first);
    }
    Key k{std::move(name), std::move(help), type};
    k.reset = [get, def](T& t) { std::invoke(get, t) = def; };
    k.read = [get, choices, names](T& t, const YAML::Node& v, Mark at, Document& doc,
                                   const std::string& path) {
      std::invoke(get, t) = choices[detail::read_choice(v, at, doc, path, names)].second;
    };
    k.format = [get, choices](const T& t) {
      for (const auto& c : choices)
        if (c.second == view(get, t)) return c.first;
      assert(false && "field holds a value that has no name");
      return std::string("?");
    };
    return add(std::move(k));
  }

  // A string with its own parser (which throws InputError) and printer, e.g. an arrangement.
  template <class Get>
  Section& custom(std::string name, Get get, std::string def_text, std::string type,
                  std::function<Field<Get>(std::string_view)> parse,
                  std::function<std::string(const Field<Get>&)> format, std::string help) {
    Key k{std::move(name), std::move(help), std::move(type)};
    k.reset = [get, parse, def_text](T& t) { std::invoke(get, t) = parse(def_text); };
    k.read = [get, parse](T& t, const YAML::Node& v, Mark at, Document& doc,
                          const std::string& path) {
      const std::string text = detail::read_string(v, at, doc, path, true);
      try {
        std::invoke(get, t) = parse(text);
      } catch (const InputError& e) {
        doc.fail(at, path, e.what());
      }
    };
    k.format = [get, format](const T& t) { return detail::quote(format(view(get, t))); };
    return add(std::move(k));
  }

  // A key whose value may be a list or a map (or a scalar): read by its own reader, which reports
  // mistakes through doc at the value's mark or its items' marks, and written back by format as
  // one line of YAML in flow style ("[a, b]", "{x: [0, 1]}"). A null value reaches the reader.
  template <class Get>
  Section& node(
      std::string name, Get get, Field<Get> def, std::string type,
      std::function<Field<Get>(const YAML::Node&, Mark, Document&, const std::string&)> parse,
      std::function<std::string(const Field<Get>&)> format, std::string help) {
    Key k{std::move(name), std::move(help), std::move(type)};
    k.reset = [get, def](T& t) { std::invoke(get, t) = def; };
    k.read = [get, parse](T& t, const YAML::Node& v, Mark at, Document& doc,
                          const std::string& path) {
      std::invoke(get, t) = parse(v, at, doc, path);
    };
    k.format = [get, format](const T& t) { return format(view(get, t)); };
    return add(std::move(k));
  }

  // A path to a file, "" for none (the default). A relative path is taken relative to the
  // directory of the document (the config file) and the field keeps the absolute path, so that
  // explain() output reads back the same from anywhere. load(t, path) reads the file when the key
  // is read (and with "" when defaults are applied); an InputError it throws is reported against
  // this key, its message included.
  template <class Get>
  Section& file(std::string name, Get get, std::string help,
                std::function<void(T&, const std::string&)> load) {
    static_assert(std::is_same_v<Field<Get>, std::string>);
    Key k{std::move(name), std::move(help),
          "file path, relative to this file's directory; empty for none"};
    k.reset = [get, load](T& t) {
      std::invoke(get, t).clear();
      load(t, "");
    };
    k.read = [get, load](T& t, const YAML::Node& v, Mark at, Document& doc,
                         const std::string& path) {
      const std::string text = detail::read_string(v, at, doc, path, true);
      const std::string resolved = text.empty() ? "" : detail::resolve_path(doc.name(), text);
      std::invoke(get, t) = resolved;
      try {
        load(t, resolved);
      } catch (const InputError& e) {
        doc.fail(at, path, e.what());
      }
    };
    k.format = [get](const T& t) { return detail::quote(view(get, t)); };
    return add(std::move(k));
  }

  // A nested map of keys, bound to a struct U reached through get (which may return T itself).
  template <class Get, class U>
  Section& section(std::string name, Get get, Section<U> sub, std::string help) {
    static_assert(std::is_same_v<Field<Get>, U>);
    Key k{std::move(name), std::move(help), ""};
    k.reset = [get, sub](T& t) { sub.apply_defaults(std::invoke(get, t)); };
    k.read = [get, sub](T& t, const YAML::Node& v, Mark at, Document& doc,
                        const std::string& path) {
      sub.read(std::invoke(get, t), v, at, doc, path);
    };
    k.write = [get, sub](const T& t, std::string& out, int indent, bool all) {
      sub.write(view(get, t), out, indent, all);
    };
    return add(std::move(k));
  }

  // The keys and checks of sub at this level, bound to the struct U reached through get: one YAML
  // map whose keys live in two structs (an engine's search keys and its game's playout keys).
  template <class Get, class U>
  Section& include(Get get, const Section<U>& sub) {
    static_assert(std::is_same_v<Field<Get>, U>);
    for (const auto& u : sub.keys_) {
      Key k{u.name, u.help, u.type};
      k.real = u.real;
      k.reset = [get, f = u.reset](T& t) { f(std::invoke(get, t)); };
      k.read = [get, f = u.read](T& t, const YAML::Node& v, Mark at, Document& doc,
                                 const std::string& path) {
        f(std::invoke(get, t), v, at, doc, path);
      };
      if (u.format) k.format = [get, f = u.format](const T& t) { return f(view(get, t)); };
      if (u.write)
        k.write = [get, f = u.write](const T& t, std::string& out, int indent, bool all) {
          f(view(get, t), out, indent, all);
        };
      if (u.applies) {
        k.applies = [get, f = u.applies](const T& t) { return f(view(get, t)); };
        k.applies_text = u.applies_text;
      }
      add(std::move(k));
    }
    for (const auto& c : sub.checks_)
      checks_.push_back([get, c](const T& t, const Document& doc, const std::string& path) {
        c(view(get, t), doc, path);
      });
    return *this;
  }

  // Keys declared after this call apply only where `applies` holds (an engine type's keys):
  // explain() leaves them out elsewhere, and a file that sets one elsewhere gets an error that
  // quotes `text` ("for type expectimax"). only_if({}, "") ends the run of such keys.
  Section& only_if(std::function<bool(const T&)> applies, std::string text) {
    applies_ = std::move(applies);
    applies_text_ = std::move(text);
    return *this;
  }

  // A check that spans keys, run after the section is read; fails through Document::fail_key
  // with paths made from the section path given to it.
  Section& check(std::function<void(const T&, const Document&, const std::string& path)> c) {
    checks_.push_back(std::move(c));
    return *this;
  }

  void apply_defaults(T& t) const {
    for (const Key& k : keys_) k.reset(t);
  }

  // Reads a map node into t over whatever t holds (call apply_defaults first), then runs checks.
  void read(T& t, const YAML::Node& node, Mark at, Document& doc, const std::string& path) const {
    doc.record(path, at);
    std::vector<size_t> conditional;
    detail::read_map(node, at, doc, path, names_,
                     [&](size_t i, const YAML::Node& v, Mark vat, const std::string& key_path) {
                       keys_[i].read(t, v, vat, doc, key_path);
                       if (keys_[i].applies && !doc.lenient()) conditional.push_back(i);
                     });
    for (const size_t i : conditional)  // after the whole map: `type` may follow the key
      if (!keys_[i].applies(t))
        doc.fail_key(detail::join(path, keys_[i].name),
                     "applies only " + keys_[i].applies_text + "; remove it");
    for (const auto& c : checks_) c(t, doc, path);
  }

  // Writes t as YAML lines at the given indent, each key with its help and type as a comment.
  // Keys that do not apply to t (only_if) are left out unless `all`.
  void write(const T& t, std::string& out, int indent, bool all = false) const {
    std::vector<detail::Entry> entries;
    for (const Key& k : keys_) {
      if (!all && k.applies && !k.applies(t)) continue;
      detail::Entry e{k.name, {}, k.type.empty() ? k.help : k.help + " (" + k.type + ")", {}};
      if (k.write)
        e.children = [&k, &t, all](std::string& o, int in) { k.write(t, o, in, all); };
      else
        e.value = k.format(t);
      entries.push_back(std::move(e));
    }
    detail::emit(out, indent, entries);
  }

  // Loads one YAML document: defaults, then the file's keys, then the checks.
  T load(const std::string& text, const std::string& name, bool lenient = false) const {
    Document doc(name);
    doc.set_lenient(lenient);
    const YAML::Node root = doc.parse(text);
    T t{};
    apply_defaults(t);
    try {
      read(t, root, detail::mark_of(root), doc, "");
    } catch (const YAML::Exception& e) {
      doc.fail(detail::mark_of(root), "", std::string("YAML error: ") + e.what());
    }
    return t;
  }

  // t as YAML; all: with the keys that do not apply to t (what identities compare).
  std::string explain(const T& t, bool all = false) const {
    std::string out;
    write(t, out, 0, all);
    return out;
  }

  // Every key of this map (not of nested sections), in declaration order, with whether it applies
  // to t.
  std::vector<KeyInfo> keys(const T& t) const {
    std::vector<KeyInfo> out;
    for (const Key& k : keys_)
      out.push_back({k.name, k.type, k.real, !k.applies || k.applies(t), k.applies_text});
    return out;
  }

  // The value of the scalar key `name` in t as explain() writes it ("mcts", "0.7"). Precondition:
  // name is a scalar key of this map.
  std::string value(const T& t, std::string_view name) const {
    const auto it = std::find(names_.begin(), names_.end(), name);
    assert(it != names_.end() && keys_[static_cast<size_t>(it - names_.begin())].format);
    return keys_[static_cast<size_t>(it - names_.begin())].format(t);
  }

  // Sets the key `name` of t from value as reading a file that wrote it would: the same type and
  // range checks, the same rounding (fixed_point), failing through doc at `at` with `path`. The
  // cross-key checks and only_if are not run: the caller decides what may be set. Precondition:
  // name is a key of this map.
  void set(T& t, std::string_view name, const YAML::Node& value, Mark at, Document& doc,
           const std::string& path) const {
    const auto it = std::find(names_.begin(), names_.end(), name);
    assert(it != names_.end() && "no such key");
    keys_[static_cast<size_t>(it - names_.begin())].read(t, value, at, doc, path);
  }

 private:
  // Getters take T&; reading through one does not modify t.
  template <class Get>
  static const Field<Get>& view(const Get& get, const T& t) {
    return std::invoke(get, const_cast<T&>(t));
  }

  template <class F>
  static F to_fixed(double v, uint32_t one) {
    return static_cast<F>(static_cast<uint64_t>(v * one + 0.5));  // v >= 0 and in range
  }

  struct Key {
    Key(std::string n, std::string h, std::string t)
        : name(std::move(n)), help(std::move(h)), type(std::move(t)) {}
    std::string name, help, type;
    std::function<void(T&)> reset;
    std::function<void(T&, const YAML::Node&, Mark, Document&, const std::string&)> read;
    std::function<std::string(const T&)> format;                   // scalars
    std::function<void(const T&, std::string&, int, bool)> write;  // sections
    std::function<bool(const T&)> applies;  // only_if: empty when the key always applies
    std::string applies_text;
    bool real = false;  // real and fixed_point keys
  };

  Section& add(Key k) {
    assert(std::find(names_.begin(), names_.end(), k.name) == names_.end() && "declared twice");
    names_.push_back(k.name);
    if (applies_ && !k.applies) {
      k.applies = applies_;
      k.applies_text = applies_text_;
    }
    keys_.push_back(std::move(k));
    return *this;
  }

  template <class>
  friend class Section;

  std::vector<Key> keys_;
  std::vector<std::string> names_;
  std::function<bool(const T&)> applies_;
  std::string applies_text_;
  std::vector<std::function<void(const T&, const Document&, const std::string&)>> checks_;
};

// The text of a YAML file of the project's (configs, weights): at most 1 MiB, so a device or a
// data file given by mistake is refused. Throws ConfigError "cannot read PATH: reason".
std::string read_config_file(const std::string& path);

}  // namespace sp::config
