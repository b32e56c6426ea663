// SPDX-License-Identifier: MIT
#pragma once
// The English text of every message the core says (message.hpp): one template per id, with
// {argument} placeholders. The response's text fields are rendered from these; the page renders
// its languages from web/i18n/messages.<lang>.json (messages.en.json is this table, written by
// `llmsizer messages --json` and checked equal by a test).
#include <string>
#include <string_view>
#include <vector>

#include "llmsizer/message.hpp"

namespace llmsizer::edge {

struct MessageTemplate {
  std::string_view id;
  std::string_view en;
};

/// The written templates, sorted by id.
const MessageTemplate* message_templates_begin();
const MessageTemplate* message_templates_end();
/// Every template the core can render: the written ones and the catalog's names ("term.format.<id>",
/// "term.kv_format.<id>": each weight and KV-cache format's name), sorted by id.
std::vector<MessageTemplate> all_message_templates();

/// The English text of `message` (its template with the arguments put in, then its parts).
/// Throws std::logic_error for an id without a template (a test renders every id the corpus meets).
std::string render_en(const Message& message);

}  // namespace llmsizer::edge
