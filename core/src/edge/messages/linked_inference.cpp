// SPDX-License-Identifier: MIT
// The common table alone: the page's WebAssembly module (wasm/bindings.cpp), which answers inference
// only and reads no model file, so it links neither serving's and training's text nor the files'.
#include "llmsizer/message_text.hpp"

namespace llmsizer::edge {

MessageTables linked_message_tables() { return {{common_message_templates()}, 1}; }

}  // namespace llmsizer::edge
