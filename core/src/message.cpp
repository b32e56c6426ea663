// SPDX-License-Identifier: MIT
#include "llmsizer/message.hpp"

namespace llmsizer {
namespace {

MessageArg arg(std::string_view name, std::string_view suffix, MessageArg::Kind kind) {
  MessageArg a;
  a.name = std::string(name) + std::string(suffix);
  a.kind = kind;
  return a;
}

}  // namespace

Message& Message::integer(std::string_view name, std::int64_t value) {
  MessageArg a = arg(name, "", MessageArg::Kind::integer);
  a.integer = value;
  args.push_back(std::move(a));
  return *this;
}

Message& Message::decimal(std::string_view name, double value, int digits) {
  MessageArg a = arg(name, "", MessageArg::Kind::decimal);
  a.real = value;
  a.digits = digits;
  args.push_back(std::move(a));
  return *this;
}

Message& Message::significant(std::string_view name, double value) {
  MessageArg a = arg(name, "", MessageArg::Kind::significant);
  a.real = value;
  args.push_back(std::move(a));
  return *this;
}

namespace {
Message& whole(Message& m, std::string_view name, std::string_view suffix, MessageArg::Kind kind, std::int64_t value) {
  MessageArg a = arg(name, suffix, kind);
  a.integer = value;
  m.args.push_back(std::move(a));
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
  args.push_back(std::move(a));
  return *this;
}

Message& Message::ratio(std::string_view name, std::int64_t numerator, std::int64_t denominator) {
  MessageArg a = arg(name, "_ratio", MessageArg::Kind::ratio);
  a.integer = numerator;
  a.denominator = denominator;
  a.real = denominator != 0 ? static_cast<double>(numerator) / static_cast<double>(denominator) : 0.0;
  args.push_back(std::move(a));
  return *this;
}

Message& Message::usd(std::string_view name, double value, int digits) {
  MessageArg a = arg(name, "_usd", MessageArg::Kind::usd);
  a.real = value;
  a.digits = digits;
  args.push_back(std::move(a));
  return *this;
}

Message& Message::text(std::string_view name, std::string_view value) {
  MessageArg a = arg(name, "", MessageArg::Kind::text);
  a.text = std::string(value);
  args.push_back(std::move(a));
  return *this;
}

Message& Message::term(std::string_view name, std::string_view term_id) {
  MessageArg a = arg(name, "_term", MessageArg::Kind::term);
  a.text = std::string(term_id);
  args.push_back(std::move(a));
  return *this;
}

Message& Message::then(Message part) {
  parts.push_back(std::move(part));
  return *this;
}

}  // namespace llmsizer
