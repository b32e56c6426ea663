// SPDX-License-Identifier: MIT
#pragma once
/// Words as data: every sentence the core says (an explanation's formula and numbers, a warning, a
/// model feature, what bounds the speed, why an option fits, an error) is a Message — a stable id
/// and the numbers put in — never English text. The edge renders English from a template per id
/// (core/src/edge/answer/messages_en.cpp: the `text` fields of the response) and sends the data beside it,
/// so the page renders the same message in any language from its own string table
/// (web/i18n/messages.<lang>.json).
///
/// An argument's name carries its unit, which also says how any language writes it: the builders
/// append the suffix (`bytes("weights", n)` is the argument `weights_bytes`):
///   _bytes  a byte count          _count  a count of things      _b   bytes per element
///   _ratio  "n×"                  _usd    US dollars             _term  a term, itself translated
///   (none) a plain number, or a word written as is (an id, a name)
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace llmsizer {

struct MessageArg {
  /// How the English template writes the value (the page decides by the name's suffix).
  enum class Kind {
    integer,      ///< 2048
    decimal,      ///< printf("%.*f", digits): 41.3
    significant,  ///< 4 significant digits, 3 above a million: 4.156, 7.62e9 (fmt::count)
    count,        ///< whole count, 3 significant digits above a million: 7.62e9, 151936
    grouped,      ///< whole count with thousands separators: 151,936
    short_count,  ///< 3 significant digits with K/M/B/T: 7.62B
    bytes,        ///< decimal GB with 2 decimals: 15.23 GB
    bytes_1,      ///< decimal GB with 1 decimal: 15.2 GB
    bytes_short,  ///< 3 significant digits in B/kB/MB/GB: 1.15 MB
    memory_size,  ///< a memory configuration as vendors name it (GiB read as "GB"): 64 GB
    bytes_each,   ///< bytes per element, 4 significant digits: 0.5625 B
    ratio,        ///< 7× or 2.5×
    usd,          ///< $ with `digits` decimals: $0.52
    text,         ///< a word as is: an id, a name, a tensor name
    term,         ///< a translated noun phrase: `text` is its id, rendered from template "term.<id>"
  };
  std::string name;
  Kind kind = Kind::integer;
  std::int64_t integer = 0;  ///< integer, count, grouped, short_count, bytes*, memory_size
  double real = 0;           ///< decimal, significant, bytes_each, usd; ratio: numerator / denominator
  std::int64_t denominator = 0;  ///< ratio: whole ratios print without decimals
  int digits = 0;            ///< decimal, usd
  std::string text;          ///< text; term: the term's id
};

struct Message {
  std::string id;
  std::vector<MessageArg> args;
  /// Clauses that follow the main text in order, each a message of its own ("… ÷ 2 GPUs").
  std::vector<Message> parts;

  Message() = default;
  explicit Message(std::string message_id) : id(std::move(message_id)) {}

  Message& integer(std::string_view name, std::int64_t value);
  Message& decimal(std::string_view name, double value, int digits);
  Message& significant(std::string_view name, double value);
  Message& count(std::string_view name, std::int64_t value);            ///< `<name>_count`
  Message& grouped(std::string_view name, std::int64_t value);          ///< `<name>_count`
  Message& short_count(std::string_view name, std::int64_t value);      ///< `<name>_count`
  Message& bytes(std::string_view name, std::int64_t value);            ///< `<name>_bytes`
  Message& bytes_1(std::string_view name, std::int64_t value);          ///< `<name>_bytes`
  Message& bytes_short(std::string_view name, std::int64_t value);      ///< `<name>_bytes`
  Message& memory_size(std::string_view name, std::int64_t value);      ///< `<name>_bytes`
  Message& bytes_each(std::string_view name, double value);             ///< `<name>_b`
  Message& ratio(std::string_view name, std::int64_t numerator, std::int64_t denominator);  ///< `<name>_ratio`
  Message& usd(std::string_view name, double value, int digits);        ///< `<name>_usd`
  Message& text(std::string_view name, std::string_view value);
  Message& term(std::string_view name, std::string_view term_id);               ///< `<name>_term`
  Message& then(Message part);
};

}  // namespace llmsizer
