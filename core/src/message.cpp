// SPDX-License-Identifier: MIT
#include "llmsizer/message.hpp"

namespace llmsizer {
namespace {

// Built in place, without temporaries: a request's answer builds a few hundred arguments (a
// whole-catalog recommendation thousands), and their strings are a visible part of an estimate's
// time.
MessageArg arg(std::string_view name, std::string_view suffix, MessageArg::Kind kind) {
  MessageArg a;
  a.name.reserve(name.size() + suffix.size());
  a.name.append(name).append(suffix);
  a.kind = kind;
  return a;
}

void add(std::vector<MessageArg>& args, MessageArg&& a) {
  if (args.empty()) args.reserve(4);  // most messages have one to four arguments: one allocation
  args.push_back(std::move(a));
}

}  // namespace

Message& Message::integer(std::string_view name, std::int64_t value) {
  MessageArg a = arg(name, "", MessageArg::Kind::integer);
  a.integer = value;
  add(args, std::move(a));
  return *this;
}

Message& Message::decimal(std::string_view name, double value, int digits) {
  MessageArg a = arg(name, "", MessageArg::Kind::decimal);
  a.real = value;
  a.digits = digits;
  add(args, std::move(a));
  return *this;
}

Message& Message::significant(std::string_view name, double value) {
  MessageArg a = arg(name, "", MessageArg::Kind::significant);
  a.real = value;
  add(args, std::move(a));
  return *this;
}

namespace {
Message& whole(Message& m, std::string_view name, std::string_view suffix, MessageArg::Kind kind, std::int64_t value) {
  MessageArg a = arg(name, suffix, kind);
  a.integer = value;
  add(m.args, std::move(a));
  return m;
}
}  // namespace

Message& Message::count(std::string_view name, std::int64_t value) { return whole(*this, name, "_count", MessageArg::Kind::count, value); }
Message& Message::grouped(std::string_view name, std::int64_t value) { return whole(*this, name, "_count", MessageArg::Kind::grouped, value); }
Message& Message::short_count(std::string_view name, std::int64_t value) { return whole(*this, name, "_count", MessageArg::Kind::short_count, value); }
Message& Message::bytes(std::string_view name, std::int64_t value) { return whole(*this, name, "_bytes", MessageArg::Kind::bytes, value); }
Message& Message::bytes_1(std::string_view name, std::int64_t value) { return whole(*this, name, "_bytes", MessageArg::Kind::bytes_1, value); }
Message& Message::bytes_short(std::string_view name, std::int64_t value) { return whole(*this, name, "_bytes", MessageArg::Kind::bytes_short, value); }
Message& Message::memory_size(std::string_view name, std::int64_t value) { return whole(*this, name, "_bytes", MessageArg::Kind::memory_size, value); }

Message& Message::bytes_each(std::string_view name, double value) {
  MessageArg a = arg(name, "_b", MessageArg::Kind::bytes_each);
  a.real = value;
  add(args, std::move(a));
  return *this;
}

Message& Message::ratio(std::string_view name, std::int64_t numerator, std::int64_t denominator) {
  MessageArg a = arg(name, "_ratio", MessageArg::Kind::ratio);
  a.integer = numerator;
  a.denominator = denominator;
  a.real = denominator != 0 ? static_cast<double>(numerator) / static_cast<double>(denominator) : 0.0;
  add(args, std::move(a));
  return *this;
}

Message& Message::usd(std::string_view name, double value, int digits) {
  MessageArg a = arg(name, "_usd", MessageArg::Kind::usd);
  a.real = value;
  a.digits = digits;
  add(args, std::move(a));
  return *this;
}

Message& Message::text(std::string_view name, std::string_view value) {
  MessageArg a = arg(name, "", MessageArg::Kind::text);
  a.text = std::string(value);
  add(args, std::move(a));
  return *this;
}

Message& Message::term(std::string_view name, std::string_view term_id) {
  MessageArg a = arg(name, "_term", MessageArg::Kind::term);
  a.text = std::string(term_id);
  add(args, std::move(a));
  return *this;
}

Message& Message::then(Message part) {
  parts.push_back(std::move(part));
  return *this;
}

}  // namespace llmsizer
