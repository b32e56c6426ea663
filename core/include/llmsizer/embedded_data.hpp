// SPDX-License-Identifier: MIT
#pragma once
/// The data files compiled into the core (data/models, data/hardware, data/measured): text only;
/// the JSON edge parses what it needs. No file is read at run time.
#include <string_view>

namespace llmsizer {

struct EmbeddedDocument {
  std::string_view kind;  ///< folder under data/: "models", "hardware", "measured"
  std::string_view id;    ///< file stem, equal to the document's "id"
  std::string_view json;  ///< the file's text
};

/// All embedded documents, sorted by kind then id (the generator sorts the file list).
const EmbeddedDocument* embedded_documents_begin();
const EmbeddedDocument* embedded_documents_end();

/// The document of `kind` whose id is `id`, or nullptr.
const EmbeddedDocument* find_embedded_document(std::string_view kind, std::string_view id);

}  // namespace llmsizer
