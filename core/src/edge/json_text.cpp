// SPDX-License-Identifier: MIT
#include "json_text.hpp"

#include <utility>

namespace llmsizer::edge {
namespace {

/// nlohmann::json::parse without a callback, as it runs it (json.hpp 3.11, parser::parse): the DOM
/// parser, strict (the input read to its end); on the first error it throws, or with
/// `allow_exceptions` false gives a discarded value. nlohmann::json::sax_parse is not used: it would
/// instantiate the binary formats' reader too.
nlohmann::json parse(std::string_view text, bool allow_exceptions) {
  nlohmann::json result;
  nlohmann::detail::json_sax_dom_parser<nlohmann::json> dom(result, allow_exceptions);
  auto input = nlohmann::detail::input_adapter(text);
  nlohmann::detail::parser<nlohmann::json, decltype(input)>(std::move(input), nullptr, allow_exceptions, false).sax_parse(&dom, true);
  if (dom.is_errored()) result = nlohmann::json(nlohmann::json::value_t::discarded);
  return result;
}

}  // namespace

nlohmann::json parse_json(std::string_view text) { return parse(text, true); }

nlohmann::json parse_json_or_discarded(std::string_view text) { return parse(text, false); }

}  // namespace llmsizer::edge
