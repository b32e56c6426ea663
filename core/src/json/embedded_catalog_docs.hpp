// SPDX-License-Identifier: MIT
#pragma once
// The compiled-in preset documents (data/models/<id>.json) as JSON, for the edge's listings.
#include <string_view>

#include <nlohmann/json.hpp>

namespace llmsizer::edge {

/// The preset document `id` (lowercase) parsed, or null when there is none.
nlohmann::json preset_document(std::string_view id);

}  // namespace llmsizer::edge
