// SPDX-License-Identifier: MIT
// The common table alone: the page's WebAssembly module (wasm/bindings.cpp), which answers one model's
// inference only and reads no model file, so it links neither serving's, training's and the models
// kept loaded side by side's text nor the files'.
#include "llmsizer/message_text.hpp"

namespace llmsizer::edge {

MessageTables linked_message_tables() { return {{common_message_templates()}, 1}; }

}  // namespace llmsizer::edge
