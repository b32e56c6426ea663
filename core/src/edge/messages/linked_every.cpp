// SPDX-License-Identifier: MIT
// Every message table: the programs that answer every task and read model files (the CLI, the tests,
// the tools, the benchmark's WebAssembly module).
#include "llmsizer/message_text.hpp"

namespace llmsizer::edge {

MessageTables linked_message_tables() { return {{common_message_templates(), task_message_templates(), file_message_templates()}, 3}; }

}  // namespace llmsizer::edge
