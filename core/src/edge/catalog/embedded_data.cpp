// SPDX-License-Identifier: MIT
#include "llmsizer/embedded_data.hpp"

namespace llmsizer {

const EmbeddedDocument* find_embedded_document(std::string_view kind, std::string_view id) {
  for (auto* doc = embedded_documents_begin(); doc != embedded_documents_end(); ++doc) {
    if (doc->kind == kind && doc->id == id) return doc;
  }
  return nullptr;
}

}  // namespace llmsizer
