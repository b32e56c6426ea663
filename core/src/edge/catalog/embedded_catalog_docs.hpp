// SPDX-License-Identifier: MIT
#pragma once
// The compiled-in preset documents (data/models/<id>.json) as JSON, for the edge's listings.
#include <string_view>

#include <nlohmann/json.hpp>

#include "llmsizer/model.hpp"

namespace llmsizer::edge {

/// The preset document `id` (lowercase) parsed, or null when there is none.
nlohmann::json preset_document(std::string_view id);

/** The preset a parsed preset document describes, as the catalog hands it out (its config read by
 *  model_from_hf_config, its id and name) but without its tensor list, which only an estimate needs:
 *  the listing of every preset makes none (the tensor lists were most of a cold listModels). */
ModelSpec preset_from_document(const nlohmann::json& doc);

}  // namespace llmsizer::edge
