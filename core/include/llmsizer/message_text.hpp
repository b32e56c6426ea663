// SPDX-License-Identifier: MIT
#pragma once
// The English text of every message the core says (message.hpp): one template per id, with
// {argument} placeholders. The response's text fields are rendered from these; the page renders
// its languages from web/i18n/messages.<lang>.json (messages.en.json is this table, written by
// `llmsizer messages --json` and checked equal by a test).
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "llmsizer/message.hpp"

namespace llmsizer::edge {

struct MessageTemplate {
  std::string_view id;
  std::string_view en;
};

/// A table of written templates, sorted by id.
struct MessageTable {
  const MessageTemplate* begin;
  const MessageTemplate* end;
};

/// The written templates are in three tables, so that a WebAssembly module links only the text its
/// own answers can say: what every answer may say (the inference estimate, the requests, the lists;
/// core/src/edge/answer/messages_en.cpp), what only serving, training and the models kept loaded side by
/// side say and what only the model files' readers say (core/src/edge/messages/). No id is in two of them.
MessageTable common_message_templates();
MessageTable task_message_templates();
MessageTable file_message_templates();

/// The tables a program renders from.
struct MessageTables {
  MessageTable tables[3];
  std::size_t count;
};

/// The tables this program links, chosen when it is linked: each program links one of the
/// definitions in core/src/edge/messages/ (linked_every.cpp and the rest, in core/CMakeLists.txt's
/// llmsizer_messages_* libraries): the CLI, the tests and the tools every table; the page's
/// WebAssembly module the common one; the tasks' module the common and the tasks'; the model files'
/// module the common and the files'.
MessageTables linked_message_tables();

/// Every template this program can render: its linked tables' and the catalog's names
/// ("term.format.<id>", "term.kv_format.<id>": each weight and KV-cache format's name), sorted by id.
std::vector<MessageTemplate> all_message_templates();

/// The English text of `message` (its template with the arguments put in, then its parts).
/// Throws std::logic_error for an id without a template (a test renders every id the corpus meets).
std::string render_en(const Message& message);

}  // namespace llmsizer::edge
