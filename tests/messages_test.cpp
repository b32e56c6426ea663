// SPDX-License-Identifier: MIT
// The English message table (core/src/edge/answer/messages_en.cpp) and the messages of the model-file
// readers: the table is sorted by id (render_en looks ids up by binary search), ids are unique,
// placeholders are argument names, terms take no arguments; a file diagnostic is a message of its
// own with the user's bytes as text arguments, and its English is the sentence the readers said
// before they spoke in messages (the expected strings below are those sentences, written out).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "llmsizer/edge/file_header.hpp"
#include "llmsizer/edge/gguf.hpp"
#include "llmsizer/message_text.hpp"
#include "llmsizer/edge/safetensors.hpp"
#include "model_file_bytes.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace messages_test {

using namespace llmsizer;

namespace {

/// `{name}` placeholders of a template, as render_en finds them (name characters between braces).
std::vector<std::string> placeholders(std::string_view text) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '{') continue;
    std::size_t end = i + 1;
    while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) ++end;
    if (end < text.size() && text[end] == '}' && end > i + 1) out.emplace_back(text.substr(i + 1, end - i - 1));
  }
  return out;
}

/// An argument name as message.hpp's builders write it: lowercase words joined by '_'.
bool is_argument_name(const std::string& name) {
  if (name.empty() || !std::islower(static_cast<unsigned char>(name.front())) || name.back() == '_') return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool ok = std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_';
    if (!ok || (c == '_' && name[i - 1] == '_')) return false;
  }
  return true;
}

struct Thrown {
  Message message;
  bool truncated = false;
};

template <typename F>
Thrown thrown_by(F&& read) {
  try {
    read();
  } catch (const TruncatedInputError& e) {
    return {e.message(), true};
  } catch (const InputError& e) {
    return {e.message(), false};
  }
  FAIL("expected an InputError");
  return {};
}

std::string english(const Thrown& t) { return edge::render_en(t.message); }

/// The argument `name` of `m`, or an empty one (name "") when it has none.
MessageArg arg(const Message& m, const std::string& name) {
  for (const auto& a : m.args) {
    if (a.name == name) return a;
  }
  return {};
}

using model_file_bytes::GgufBuilder;
using model_file_bytes::le32;

}  // namespace

TEST_CASE("The English tables are sorted by id, name each id once and use argument names as placeholders", "[messages]") {
  std::set<std::string_view> ids;
  for (const edge::MessageTable& table :
       {edge::common_message_templates(), edge::task_message_templates(), edge::file_message_templates()}) {
    REQUIRE(table.end - table.begin > 50);
    for (const auto* t = table.begin; t != table.end; ++t) {
      INFO(t->id);
      if (t != table.begin) CHECK((t - 1)->id < t->id);  // strictly increasing: sorted and unique
      CHECK(ids.insert(t->id).second);                   // in no other table
      CHECK(!t->en.empty());
      for (const auto& name : placeholders(t->en)) {
        INFO(name);
        CHECK(is_argument_name(name));
      }
      // A term is rendered from its id alone (message_text.hpp), so it has nothing to fill in.
      if (t->id.substr(0, 5) == "term.") CHECK(placeholders(t->en).empty());
    }
  }
  // The 641 written templates: messages.en.json's 710 ids less the catalog's 69 format names.
  CHECK(ids.size() == 641);
}

TEST_CASE("A native program links every English table: a request error's, serving's and the GGUF reader's templates", "[messages]") {
  const edge::MessageTables linked = edge::linked_message_tables();
  REQUIRE(linked.count == 3);
  CHECK(linked.tables[0].begin == edge::common_message_templates().begin);
  CHECK(linked.tables[1].begin == edge::task_message_templates().begin);
  CHECK(linked.tables[2].begin == edge::file_message_templates().begin);
  const std::vector<edge::MessageTemplate> all = edge::all_message_templates();
  const auto has = [&](std::string_view id) {
    return std::any_of(all.begin(), all.end(), [&](const edge::MessageTemplate& t) { return t.id == id; });
  };
  CHECK(has("error.request.empty"));
  CHECK(has("serve.summary.meets"));
  CHECK(has("error.gguf.past_end_header"));
}

TEST_CASE("GGUF diagnostics are messages naming the field, the entry and the bytes", "[messages][gguf]") {
  SECTION("a field of the file header") {
    const std::string b = "GGUF" + le32(3) + le32(0);  // 12 bytes: the tensor count needs 16
    const Thrown past = thrown_by([&] { parse_gguf_header(b, 12); });
    CHECK(past.message.id == "error.gguf.past_end_header");
    CHECK(english(past) ==
          "the GGUF tensor count of the file header runs past the end of the file (it needs the first 16 bytes, the "
          "file has 12); the file is truncated or corrupt");
    const Thrown prefix = thrown_by([&] { parse_gguf_header(b, -1); });
    CHECK(prefix.truncated);
    CHECK(english(prefix) ==
          "the first 12 bytes end inside the GGUF header (at the tensor count of the file header); read at least the "
          "first 16 bytes and try again");
  }
  SECTION("a field of a metadata entry names the entry by its quoted key") {
    // 24-byte header + key (8 + 12) + value type 8 (string) = 48 bytes; the string's length needs 56.
    const std::string b = GgufBuilder{}.header(0, 1).str("general.name").u32(8).out;
    const Thrown t = thrown_by([&] { parse_gguf_header(b, -1); });
    CHECK(t.message.id == "error.gguf.prefix_ends");
    CHECK(english(t) ==
          "the first 48 bytes end inside the GGUF header (at the string value of metadata key \"general.name\"); read "
          "at least the first 56 bytes and try again");
    CHECK(arg(t.message, "item_term").text == "gguf.item.string_value");
    CHECK(arg(t.message, "entry_term").text == "gguf.entry.metadata_key");
    CHECK(arg(t.message, "entry").kind == MessageArg::Kind::text);
    CHECK(arg(t.message, "entry").text == "\"general.name\"");
  }
  SECTION("a value type beyond the table") {
    const Thrown t = thrown_by([&] { parse_gguf_header(GgufBuilder{}.header(0, 1).str("k").u32(13).out); });
    CHECK(english(t) ==
          "the value type of metadata key \"k\" is 13, not a GGUF value type (0-12); the file is corrupt or from a "
          "newer GGUF version");
  }
  SECTION("an alignment that is not an integer") {
    const std::string b = GgufBuilder{}.header(0, 1).str("general.alignment").u32(8).str("x").out;
    const Thrown t = thrown_by([&] { parse_gguf_header(b); });
    CHECK(t.message.id == "error.gguf.alignment_not_integer");
    CHECK(english(t) == "general.alignment must be a power of two from 1 to 1048576; the file has a non-integer");
  }
  SECTION("JSON handed to the GGUF reader") {
    const Thrown t = thrown_by([&] { parse_gguf_header("{\"a\": 1}"); });
    CHECK(english(t) ==
          "not a GGUF file: it does not start with the bytes \"GGUF\". It looks like JSON (a config.json or "
          "safetensors index?).");
    REQUIRE(t.message.parts.size() == 1);
    CHECK(t.message.parts[0].id == "error.gguf.not_gguf.json");
  }
  SECTION("a removed ggml type names what replaced it") {
    const Thrown t = thrown_by([&] { parse_gguf_header(GgufBuilder{}.header(1, 0).tensor("w", {32}, 36, 0).out); });
    CHECK(english(t) ==
          "tensor \"w\" has ggml type id 36 (IQ4_NL_4_4/4_8/8_8, removed from GGUF files; use IQ4_NL), which this "
          "reader does not know; known ids are 0-3, 6-30, 34, 35 and 39-41");
    CHECK(arg(t.message, "removed_term").text == "gguf.removed_type.iq4_nl_4_4");
  }
  SECTION("tensor names are quoted text arguments") {
    // a: 64 F32 = 256 bytes at 0; b starts at 128, inside a.
    const std::string b = GgufBuilder{}.header(2, 0).tensor("a", {64}, 0, 0).tensor("b", {64}, 0, 128).out;
    const Thrown t = thrown_by([&] { parse_gguf_header(b); });
    CHECK(english(t) ==
          "the data of tensors \"a\" and \"b\" overlap (offset 128 is before the end of the previous tensor, 256); the "
          "file is corrupt");
    CHECK(arg(t.message, "previous").text == "\"a\"");
    CHECK(arg(t.message, "tensor").text == "\"b\"");
  }
}

TEST_CASE("safetensors diagnostics are messages naming the tensor, the field and the JSON found", "[messages][safetensors]") {
  auto header_error = [](const std::string& json) { return thrown_by([&] { parse_safetensors_header(model_file_bytes::safetensors_header(json)); }); };
  SECTION("a field given twice") {
    const Thrown t = header_error(R"({"w":{"dtype":"F32","shape":[1],"shape":[1],"data_offsets":[0,4]}})");
    CHECK(english(t) == "tensor \"w\" has its shape twice");
    CHECK(arg(t.message, "field").text == "shape");
  }
  SECTION("more dimensions than the cap") {
    std::string shape = "[1";
    for (int i = 0; i < 64; ++i) shape += ",1";
    const Thrown t = header_error(R"({"w":{"dtype":"F32","shape":)" + shape + R"(],"data_offsets":[0,4]}})");
    CHECK(english(t) == "tensor \"w\" has more than 64 dimensions");
  }
  SECTION("a duplicate __metadata__ key") {
    CHECK(english(header_error(R"({"__metadata__":{"a":"1","a":"2"}})")) == "__metadata__ has the key \"a\" twice");
  }
  SECTION("JSON values of the wrong kind are named by terms") {
    const Thrown in_shape = header_error(R"({"w":{"dtype":"F32","shape":[null],"data_offsets":[0,4]}})");
    CHECK(english(in_shape) == "tensor \"w\" has null in its shape; it must hold whole numbers");
    CHECK(arg(in_shape.message, "got_term").text == "json.null");
    CHECK(english(header_error(R"({"w":{"dtype":"F32","shape":[true],"data_offsets":[0,4]}})")) ==
          "tensor \"w\" has a boolean in its shape; it must hold whole numbers");
    CHECK(english(header_error(R"({"w":{"dtype":5,"shape":[1],"data_offsets":[0,4]}})")) ==
          "tensor \"w\" has a number as its dtype; it must be a string such as \"BF16\"");
    CHECK(english(header_error(R"({"w":{"dtype":"F32","shape":[1],"data_offsets":"x"}})")) ==
          "tensor \"w\" has a string as its data_offsets; it must be [begin, end]");
    CHECK(english(header_error(R"({"w":null})")) ==
          "tensor \"w\" is null; each tensor must be an object with dtype, shape and data_offsets");
  }
  SECTION("the index") {
    auto index_error = [](const std::string& json) { return english(thrown_by([&] { parse_safetensors_index(json); })); };
    CHECK(index_error(R"({"weight_map":{"a":"x","a":"y"}})") == "weight_map names \"a\" twice");
    CHECK(index_error(R"({"metadata":{"total_size":18446744073709551615},"weight_map":{}})") ==
          "metadata.total_size 18446744073709551615 is beyond int64");
    CHECK(index_error(R"({"metadata":true,"weight_map":{}})") == "metadata must be an object; it is a boolean");
  }
  SECTION("an index is read whole") {
    const auto j = nlohmann::json::parse(inspect_model_header(R"({"weight_map":{}})", 1000));
    CHECK(j["error"]["message"] == "a safetensors index is read whole; read all 1000 bytes");
    CHECK(j["error"]["message_data"]["id"] == "error.file.index_read_whole");
    CHECK(j["error"]["needed_bytes"] == 1000);
  }
}

}  // namespace messages_test
