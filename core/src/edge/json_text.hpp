// SPDX-License-Identifier: MIT
#pragma once
// JSON text into a document: the one parse of every request, listing and compiled-in document.
#include <string_view>

#include <nlohmann/json.hpp>

namespace llmsizer::edge {

/// `text` as a JSON document, the whole of it; throws nlohmann::json::parse_error as
/// nlohmann::json::parse does, with the same message. Unlike nlohmann::json::parse it instantiates
/// no parser with a callback (json_sax_dom_callback_parser and its std::vector<bool>, unused by the
/// core: about 9 KB of the WebAssembly module's code).
nlohmann::json parse_json(std::string_view text);

/// `text` as a JSON document, or a discarded value (is_discarded) where it is not JSON, as
/// nlohmann::json::parse(text, nullptr, false) gives.
nlohmann::json parse_json_or_discarded(std::string_view text);

}  // namespace llmsizer::edge
