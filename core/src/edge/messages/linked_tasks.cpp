// SPDX-License-Identifier: MIT
// The common table and serving's, training's and the models kept loaded side by side's: the tasks'
// WebAssembly module (wasm/bindings_tasks.cpp).
#include "llmsizer/message_text.hpp"

namespace llmsizer::edge {

MessageTables linked_message_tables() { return {{common_message_templates(), task_message_templates()}, 2}; }

}  // namespace llmsizer::edge
