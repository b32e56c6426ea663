// SPDX-License-Identifier: MIT
#include "regex_lite.hpp"

#include <algorithm>
#include <bitset>
#include <memory>
#include <utility>
#include <stdexcept>
#include <vector>

namespace llmsizer {
namespace {

constexpr int kUnbounded = -1;
constexpr int kMaxRepeat = 1000;   // {m,n} bounds accepted
constexpr std::size_t kMaxStates = 20000;

using CharSet = std::bitset<256>;

/// Parse tree of a pattern.
struct Node {
  enum Kind { set, concat, alternate, repeat, bol, eol } kind = set;
  CharSet chars;                        // set: the bytes it matches
  std::vector<std::unique_ptr<Node>> kids;
  int min = 0, max = 0;                 // repeat
};

CharSet class_escape(char c, bool& known) {
  CharSet s;
  known = true;
  switch (c) {
    case 'd': case 'D':
      for (int ch = '0'; ch <= '9'; ++ch) s.set(static_cast<std::size_t>(ch));
      break;
    case 'w': case 'W':
      for (int ch = 0; ch < 256; ++ch) {
        if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_') s.set(static_cast<std::size_t>(ch));
      }
      break;
    case 's': case 'S':
      for (char ch : {' ', '\t', '\n', '\r', '\f', '\v'}) s.set(static_cast<unsigned char>(ch));
      break;
    default:
      known = false;
      return s;
  }
  if (c == 'D' || c == 'W' || c == 'S') s.flip();
  return s;
}

class Parser {
 public:
  explicit Parser(const std::string& p) : p_(p) {}
  std::unique_ptr<Node> parse() {
    auto n = alternation();
    if (i_ != p_.size()) fail("unbalanced ')'");
    return n;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const { throw std::invalid_argument(why + " at position " + std::to_string(i_)); }
  bool more() const { return i_ < p_.size(); }
  char peek() const { return p_[i_]; }

  std::unique_ptr<Node> alternation() {
    auto left = sequence();
    while (more() && peek() == '|') {
      ++i_;
      auto alt = std::make_unique<Node>();
      alt->kind = Node::alternate;
      alt->kids.push_back(std::move(left));
      alt->kids.push_back(sequence());
      left = std::move(alt);
    }
    return left;
  }

  std::unique_ptr<Node> sequence() {
    auto seq = std::make_unique<Node>();
    seq->kind = Node::concat;
    while (more() && peek() != '|' && peek() != ')') seq->kids.push_back(quantified());
    return seq;
  }

  int number() {
    int n = 0;
    bool any = false;
    while (more() && peek() >= '0' && peek() <= '9') {
      n = n * 10 + (peek() - '0');
      if (n > kMaxRepeat) fail("repeat count above 1000");
      ++i_;
      any = true;
    }
    if (!any) fail("a number in {}");
    return n;
  }

  std::unique_ptr<Node> quantified() {
    auto atom_node = atom();
    while (more()) {
      int lo = 0, hi = 0;
      const char c = peek();
      if (c == '*') { lo = 0; hi = kUnbounded; ++i_; }
      else if (c == '+') { lo = 1; hi = kUnbounded; ++i_; }
      else if (c == '?') { lo = 0; hi = 1; ++i_; }
      else if (c == '{') {
        ++i_;
        lo = hi = number();
        if (more() && peek() == ',') {
          ++i_;
          hi = (more() && peek() == '}') ? kUnbounded : number();
        }
        if (!more() || peek() != '}') fail("unclosed {");
        ++i_;
        if (hi != kUnbounded && hi < lo) fail("{m,n} with n < m");
      } else {
        break;
      }
      if (more() && peek() == '?') ++i_;  // lazy: the same set of matches for a search
      if (atom_node->kind == Node::bol || atom_node->kind == Node::eol) fail("nothing to repeat");
      auto rep = std::make_unique<Node>();
      rep->kind = Node::repeat;
      rep->min = lo;
      rep->max = hi;
      rep->kids.push_back(std::move(atom_node));
      atom_node = std::move(rep);
    }
    return atom_node;
  }

  std::unique_ptr<Node> atom() {
    auto n = std::make_unique<Node>();
    const char c = peek();
    ++i_;
    switch (c) {
      case '(':
        if (i_ + 1 < p_.size() && p_[i_] == '?' && p_[i_ + 1] == ':') i_ += 2;
        n = alternation();
        if (!more() || peek() != ')') fail("unclosed (");
        ++i_;
        return n;
      case '^': n->kind = Node::bol; return n;
      case '$': n->kind = Node::eol; return n;
      case '.':
        n->chars.set();
        n->chars.reset('\n');
        return n;
      case '[': return char_class();
      case '*': case '+': case '?': case '{': fail("nothing to repeat");
      case '\\': {
        if (!more()) fail("a trailing backslash");
        const char e = peek();
        ++i_;
        bool known = false;
        n->chars = class_escape(e, known);
        if (!known) n->chars.set(static_cast<unsigned char>(e));
        return n;
      }
      default:
        n->chars.set(static_cast<unsigned char>(c));
        return n;
    }
  }

  std::unique_ptr<Node> char_class() {
    auto n = std::make_unique<Node>();
    bool negate = false;
    if (more() && peek() == '^') {
      negate = true;
      ++i_;
    }
    bool first = true;
    while (more() && (peek() != ']' || first)) {
      first = false;
      unsigned char lo = static_cast<unsigned char>(peek());
      ++i_;
      if (lo == '\\') {
        if (!more()) fail("a trailing backslash");
        bool known = false;
        const CharSet s = class_escape(peek(), known);
        lo = static_cast<unsigned char>(peek());
        ++i_;
        if (known) {
          n->chars |= s;
          continue;
        }
      }
      if (i_ + 1 < p_.size() && peek() == '-' && p_[i_ + 1] != ']') {
        ++i_;
        unsigned char hi = static_cast<unsigned char>(peek());
        ++i_;
        if (hi == '\\') {
          if (!more()) fail("a trailing backslash");
          hi = static_cast<unsigned char>(peek());
          ++i_;
        }
        if (hi < lo) fail("a range out of order");
        for (int ch = lo; ch <= hi; ++ch) n->chars.set(static_cast<std::size_t>(ch));
      } else {
        n->chars.set(lo);
      }
    }
    if (!more()) fail("unclosed [");
    ++i_;
    if (negate) n->chars.flip();
    return n;
  }

  const std::string& p_;
  std::size_t i_ = 0;
};

/// Thompson automaton: each state matches a byte set, or splits (epsilon to out and out1), or
/// asserts an anchor, or accepts.
struct State {
  enum Kind { chars, split, bol, eol, accept } kind = split;
  CharSet set;
  int out = -1, out1 = -1;
};

class Nfa {
 public:
  explicit Nfa(const Node& root) {
    const Frag f = compile(root);
    patch(f.dangling, add({State::accept, {}, -1, -1}));
    start_ = f.start;
  }

  bool search(const std::string& text) const {
    std::vector<int> current, next;
    std::vector<char> on(states_.size(), 0);
    for (std::size_t pos = 0;; ++pos) {
      add_state(current, on, start_, pos, text.size());  // unanchored: a match may start here
      for (int s : current) {
        if (states_[static_cast<std::size_t>(s)].kind == State::accept) return true;
      }
      if (pos == text.size()) return false;
      next.clear();
      std::fill(on.begin(), on.end(), 0);
      const auto byte = static_cast<unsigned char>(text[pos]);
      for (int s : current) {
        const State& st = states_[static_cast<std::size_t>(s)];
        if (st.kind == State::chars && st.set.test(byte)) add_state(next, on, st.out, pos + 1, text.size());
      }
      current.swap(next);
    }
  }

 private:
  /// An exit of a state not yet connected: (state, 0 for out / 1 for out1).
  using Hole = std::pair<int, int>;
  struct Frag {
    int start;
    std::vector<Hole> dangling;
  };

  int add(State s) {
    if (states_.size() >= kMaxStates) throw std::invalid_argument("the pattern is too large");
    states_.push_back(s);
    return static_cast<int>(states_.size()) - 1;
  }
  void patch(const std::vector<Hole>& holes, int target) {
    for (const auto& [state, which] : holes) (which == 0 ? states_[static_cast<std::size_t>(state)].out : states_[static_cast<std::size_t>(state)].out1) = target;
  }
  /// Matches the empty string: a split with one exit.
  Frag empty() {
    const int s = add({State::split, {}, -1, -1});
    return {s, {{s, 0}}};
  }
  /// `f` then `g`.
  Frag then(Frag f, Frag g) {
    patch(f.dangling, g.start);
    return {f.start, std::move(g.dangling)};
  }

  Frag compile(const Node& n) {
    switch (n.kind) {
      case Node::set:
        return single(State::chars, n.chars);
      case Node::bol:
        return single(State::bol, {});
      case Node::eol:
        return single(State::eol, {});
      case Node::concat: {
        Frag f = empty();
        for (const auto& kid : n.kids) f = then(std::move(f), compile(*kid));
        return f;
      }
      case Node::alternate: {
        Frag a = compile(*n.kids[0]);
        Frag b = compile(*n.kids[1]);
        const int s = add({State::split, {}, a.start, b.start});
        a.dangling.insert(a.dangling.end(), b.dangling.begin(), b.dangling.end());
        return {s, std::move(a.dangling)};
      }
      case Node::repeat: {
        const Node& kid = *n.kids[0];
        Frag f = empty();
        for (int i = 0; i < n.min; ++i) f = then(std::move(f), compile(kid));
        if (n.max == kUnbounded) {
          Frag body = compile(kid);
          const int s = add({State::split, {}, body.start, -1});
          patch(body.dangling, s);
          f = then(std::move(f), Frag{s, {{s, 1}}});
        } else {
          // each optional copy: split into (copy, then on) or (on)
          for (int i = n.min; i < n.max; ++i) {
            Frag body = compile(kid);
            const int s = add({State::split, {}, body.start, -1});
            body.dangling.push_back({s, 1});
            f = then(std::move(f), Frag{s, std::move(body.dangling)});
          }
        }
        return f;
      }
    }
    return empty();
  }

  Frag single(State::Kind kind, const CharSet& set) {
    const int s = add({kind, set, -1, -1});
    return {s, {{s, 0}}};
  }

  void add_state(std::vector<int>& list, std::vector<char>& on, int s, std::size_t pos, std::size_t len) const {
    if (s < 0 || on[static_cast<std::size_t>(s)]) return;
    on[static_cast<std::size_t>(s)] = 1;
    const State& st = states_[static_cast<std::size_t>(s)];
    switch (st.kind) {
      case State::split:
        add_state(list, on, st.out, pos, len);
        add_state(list, on, st.out1, pos, len);
        return;
      case State::bol:
        if (pos == 0) add_state(list, on, st.out, pos, len);
        return;
      case State::eol:
        if (pos == len) add_state(list, on, st.out, pos, len);
        return;
      default:
        list.push_back(s);
    }
  }

  std::vector<State> states_;
  int start_ = -1;
};

}  // namespace

struct RegexLite::Automaton {
  explicit Automaton(const Node& root) : nfa(root) {}
  Nfa nfa;
};

RegexLite::RegexLite(const std::string& pattern) {
  Parser parser(pattern);
  automaton_ = std::make_shared<const Automaton>(*parser.parse());
}

bool RegexLite::search(const std::string& text) const { return automaton_->nfa.search(text); }

}  // namespace llmsizer
