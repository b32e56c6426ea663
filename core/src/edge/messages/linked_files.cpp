// SPDX-License-Identifier: MIT
// The common table and the model files' readers': the files' WebAssembly module
// (wasm/bindings_model_files.cpp).
#include "llmsizer/message_text.hpp"

namespace llmsizer::edge {

MessageTables linked_message_tables() { return {{common_message_templates(), file_message_templates()}, 2}; }

}  // namespace llmsizer::edge
