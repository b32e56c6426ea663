// SPDX-License-Identifier: MIT
#pragma once
// A small regular-expression search for the patterns llama.cpp's --override-tensor takes
// (llama-model-loader.cpp matches them with std::regex_search, ECMAScript syntax): literals, `.`,
// classes `[a-z_]` / `[^...]`, escapes (`\.`, `\d`, `\w`, `\s`), groups `( )` / `(?: )`, alternation
// `|`, the quantifiers `*`, `+`, `?`, `{m}`, `{m,}`, `{m,n}`, and the anchors `^`, `$`. It runs as a
// Thompson automaton, so no pattern takes exponential time. std::regex would do the same job but
// adds much of libc++'s regex to the WebAssembly module. Private to the core.
#include <memory>
#include <string>

namespace llmsizer {

class RegexLite {
 public:
  /// Compiles `pattern`; throws std::invalid_argument for a pattern outside the syntax above
  /// (unbalanced brackets, a quantifier with nothing to repeat, ...).
  explicit RegexLite(const std::string& pattern);
  /// True when the pattern matches somewhere in `text` (std::regex_search).
  bool search(const std::string& text) const;

 private:
  struct Automaton;
  std::shared_ptr<const Automaton> automaton_;
};

}  // namespace llmsizer
