// SPDX-License-Identifier: MIT
// safetensors header reader. The JSON is read with nlohmann's SAX interface into a small state
// machine, never into a DOM: memory stays proportional to the tensors found, and a wrong shape
// of JSON is rejected at the first event that does not fit.
#include "llmsizer/edge/safetensors.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <set>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include "model_files/header_util.hpp"

#include "llmsizer/ascii.hpp"

namespace llmsizer {
namespace {

using nlohmann::json;
using detail::kInt64Max;
using detail::kFileField;
using detail::decimal;

[[noreturn]] void fail(Message message) { throw InputError(kFileField, std::move(message)); }

/// A JSON value's kind as the term messages name it ("json.array": "an array").
constexpr const char* kNull = "json.null";
constexpr const char* kBoolean = "json.boolean";
constexpr const char* kNumber = "json.number";
constexpr const char* kString = "json.string";
constexpr const char* kBinary = "json.binary";
constexpr const char* kArray = "json.array";
constexpr const char* kObject = "json.object";

/// The text after nlohmann's "[json.exception.parse_error.101] " prefix.
std::string json_error_text(const nlohmann::detail::exception& ex) {
  std::string s = ex.what();
  if (const auto close = s.find("] "); close != std::string::npos && !s.empty() && s[0] == '[') s = s.substr(close + 2);
  return detail::sanitize_utf8(s);
}

/** SAX handler for the header object:
 *  {"<name>": {"dtype": str, "shape": [uint...], "data_offsets": [uint, uint], ...}, ...,
 *   "__metadata__": {str: str, ...}}.
 *  `depth`: 1 inside the top object, 2 inside a tensor or __metadata__, 3 inside shape/offsets.
 *  Unknown fields of a tensor are skipped whatever their shape (`skip` counts nesting). */
class HeaderSax {
 public:
  std::vector<SafetensorsTensor> tensors;
  std::map<std::string, std::string> metadata;
  std::optional<Message> parse_error_message;

  bool null() { return scalar(kNull); }
  bool boolean(bool) { return scalar(kBoolean); }
  bool number_integer(json::number_integer_t v) {
    if (skip_ == 0 && depth_ == 3) {
      fail(tensor_message("error.safetensors.negative_number").integer("value", std::int64_t{v}).text("field", field_name()));
    }
    return scalar(kNumber);
  }
  bool number_unsigned(json::number_unsigned_t v) {
    if (skip_ == 0 && depth_ == 3) {
      if (v > static_cast<std::uint64_t>(kInt64Max)) {
        fail(tensor_message("error.safetensors.number_beyond_int64").text("value", decimal(std::uint64_t{v})).text("field", field_name()));
      }
      auto& list = field_ == Field::shape ? cur_.shape : offsets_;
      const std::size_t cap = field_ == Field::shape ? kSafetensorsMaxRank : 2;
      if (list.size() >= cap) {
        fail(field_ == Field::shape
                 ? tensor_message("error.safetensors.too_many_dimensions").integer("max", static_cast<std::int64_t>(kSafetensorsMaxRank))
                 : tensor_message("error.safetensors.offsets_more_than_two"));
      }
      list.push_back(static_cast<std::int64_t>(v));
      return true;
    }
    return scalar(kNumber);
  }
  bool number_float(json::number_float_t, const json::string_t& text) {
    if (skip_ == 0 && depth_ == 3) {
      fail(tensor_message("error.safetensors.fraction").text("value", detail::quote_for_message(text)).text("field", field_name()));
    }
    return scalar(kNumber);
  }
  bool string(json::string_t& v) {
    if (skip_ == 0 && depth_ == 2) {
      if (in_metadata_) {
        metadata[pending_key_] = v;
        return true;
      }
      if (field_ == Field::dtype) {
        cur_.dtype = v;
        has_dtype_ = true;
        return true;
      }
    }
    return scalar(kString);
  }
  bool binary(json::binary_t&) { return scalar(kBinary); }

  bool start_object(std::size_t) {
    if (skip_ > 0) return ++skip_, true;
    switch (depth_) {
      case 0: depth_ = 1; return true;
      case 1:
        depth_ = 2;
        in_metadata_ = top_key_ == "__metadata__";
        if (!in_metadata_) begin_tensor();
        return true;
      case 2:
        if (in_metadata_) fail(metadata_value_message(kObject));
        if (field_ != Field::other) wrong_type(kObject);
        skip_ = 1;
        return true;
      default: wrong_type(kObject);
    }
  }
  bool end_object() {
    if (skip_ > 0) return --skip_, true;
    if (depth_ == 2 && !in_metadata_) end_tensor();
    in_metadata_ = false;
    --depth_;
    return true;
  }
  bool start_array(std::size_t) {
    if (skip_ > 0) return ++skip_, true;
    switch (depth_) {
      case 0: fail(Message("error.safetensors.header_not_object").term("got", kArray));
      case 1: scalar(kArray); return true;  // fails
      case 2:
        if (in_metadata_) fail(metadata_value_message(kArray));
        if (field_ == Field::shape || field_ == Field::offsets) {
          if (field_ == Field::shape ? has_shape_ : has_offsets_) {
            fail(tensor_message("error.safetensors.field_twice").text("field", field_name()));
          }
          (field_ == Field::shape ? has_shape_ : has_offsets_) = true;
          depth_ = 3;
          return true;
        }
        if (field_ == Field::dtype) wrong_type(kArray);
        skip_ = 1;
        return true;
      default: fail(tensor_message("error.safetensors.nested_array").text("field", field_name()));
    }
  }
  bool end_array() {
    if (skip_ > 0) return --skip_, true;
    if (field_ == Field::offsets && offsets_.size() != 2) {
      fail(tensor_message("error.safetensors.offsets_count").integer("numbers", static_cast<std::int64_t>(offsets_.size())));
    }
    depth_ = 2;
    return true;
  }
  bool key(json::string_t& k) {
    if (skip_ > 0) return true;
    if (depth_ == 1) {
      top_key_ = k;
      if (!names_.insert(k).second) fail(Message("error.safetensors.duplicate_name").text("name", detail::quote_for_message(k)));
    } else if (depth_ == 2) {
      if (in_metadata_) {
        if (metadata.count(k) != 0) fail(Message("error.safetensors.metadata_duplicate_key").text("key", detail::quote_for_message(k)));
        pending_key_ = k;
      } else {
        field_ = k == "dtype" ? Field::dtype : k == "shape" ? Field::shape : k == "data_offsets" ? Field::offsets : Field::other;
      }
    }
    return true;
  }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& ex) {
    parse_error_message = Message("error.safetensors.not_json_near").integer("byte", static_cast<std::int64_t>(position))
                              .text("detail", json_error_text(ex));
    return false;
  }

 private:
  enum class Field { dtype, shape, offsets, other };

  /// Message `id` about the tensor being read (argument `tensor`: its quoted name).
  Message tensor_message(const char* id) const { return Message(id).text("tensor", detail::quote_for_message(top_key_)); }
  Message metadata_value_message(const char* got) const {
    return Message("error.safetensors.metadata_value_not_string").text("key", detail::quote_for_message(pending_key_)).term("got", got);
  }
  /// The field being read, as the header spells it ("field" is never said: unknown fields are skipped).
  const char* field_name() const {
    return field_ == Field::dtype ? "dtype" : field_ == Field::shape ? "shape" : field_ == Field::offsets ? "data_offsets" : "field";
  }
  [[noreturn]] void wrong_type(const char* got) {
    const char* want = field_ == Field::dtype ? "safetensors.expected.dtype" : field_ == Field::shape ? "safetensors.expected.shape"
                                                                                                      : "safetensors.expected.data_offsets";
    fail(tensor_message("error.safetensors.field_type").term("got", got).text("field", field_name()).term("expected", want));
  }
  /// A scalar (or, from start_array at depth 1, an array) where the structure has no place for it.
  bool scalar(const char* got) {
    if (skip_ > 0) return true;
    switch (depth_) {
      case 0: fail(Message("error.safetensors.header_not_object").term("got", got));
      case 1:
        if (top_key_ == "__metadata__") fail(Message("error.safetensors.metadata_not_object").term("got", got));
        fail(tensor_message("error.safetensors.tensor_not_object").term("got", got));
      case 2:
        if (in_metadata_) fail(metadata_value_message(got));
        if (field_ == Field::other) return true;  // unknown field: ignored
        wrong_type(got);
      default: fail(tensor_message("error.safetensors.not_a_whole_number").term("got", got).text("field", field_name()));
    }
  }
  void begin_tensor() {
    cur_ = SafetensorsTensor{};
    cur_.name = top_key_;
    offsets_.clear();
    has_dtype_ = has_shape_ = has_offsets_ = false;
  }
  void end_tensor() {
    if (!has_dtype_ || !has_shape_ || !has_offsets_) {
      fail(tensor_message("error.safetensors.missing_field").text("field", !has_dtype_ ? "dtype" : !has_shape_ ? "shape" : "data_offsets"));
    }
    const SafetensorsDtypeInfo* dtype = safetensors_dtype(cur_.dtype);
    if (!dtype) {
      fail(tensor_message("error.safetensors.unknown_dtype").text("dtype", detail::quote_for_message(cur_.dtype)));
    }
    std::optional<std::int64_t> elements = 1;
    for (std::int64_t d : cur_.shape) elements = elements ? detail::checked_mul(*elements, d) : std::nullopt;
    const std::optional<std::int64_t> bits = elements ? detail::checked_mul(*elements, dtype->bits) : std::nullopt;
    if (!bits) fail(tensor_message("error.safetensors.shape_overflow"));
    if (*bits % 8 != 0) {
      fail(tensor_message("error.safetensors.partial_bytes").integer("elements", *elements).integer("bits", dtype->bits));
    }
    cur_.elements = *elements;
    cur_.data_begin = offsets_[0];
    cur_.data_end = offsets_[1];
    if (cur_.data_end < cur_.data_begin) {
      fail(tensor_message("error.safetensors.offsets_reversed").integer("begin", cur_.data_begin).integer("end", cur_.data_end));
    }
    if (cur_.bytes() != *bits / 8) {
      std::string shape;
      for (std::int64_t d : cur_.shape) shape += (shape.empty() ? "" : ", ") + decimal(d);
      fail(tensor_message("error.safetensors.size_mismatch").integer("begin", cur_.data_begin).integer("end", cur_.data_end)
               .integer("span", cur_.bytes()).text("dtype", cur_.dtype).text("shape", shape).integer("needed", *bits / 8));
    }
    tensors.push_back(std::move(cur_));
  }

  int depth_ = 0;
  int skip_ = 0;
  bool in_metadata_ = false;
  Field field_ = Field::other;
  std::string top_key_;
  std::string pending_key_;
  std::unordered_set<std::string> names_;
  SafetensorsTensor cur_;
  std::vector<std::int64_t> offsets_;
  bool has_dtype_ = false, has_shape_ = false, has_offsets_ = false;
};

/// Index of a decoder layer in a Hugging Face tensor name ("model.layers.12.mlp..." → 12), or -1.
std::int64_t layer_index(std::string_view name) {
  for (std::string_view marker : {std::string_view("layers."), std::string_view("h."), std::string_view("blocks.")}) {
    for (std::size_t at = name.find(marker); at != std::string_view::npos; at = name.find(marker, at + 1)) {
      if (at != 0 && name[at - 1] != '.') continue;
      std::size_t i = at + marker.size();
      std::int64_t n = 0;
      const std::size_t digits_begin = i;
      while (i < name.size() && name[i] >= '0' && name[i] <= '9' && i - digits_begin < 9) n = n * 10 + (name[i++] - '0');
      if (i > digits_begin && i < name.size() && name[i] == '.') return n;
    }
  }
  return -1;
}

/// Expert index in "...mlp.experts.7.gate_proj.weight" → 7, or -1.
std::int64_t expert_index(std::string_view name) {
  const std::size_t at = name.find(".experts.");
  if (at == std::string_view::npos) return -1;
  std::size_t i = at + 9;
  std::int64_t n = 0;
  const std::size_t digits_begin = i;
  while (i < name.size() && name[i] >= '0' && name[i] <= '9' && i - digits_begin < 9) n = n * 10 + (name[i++] - '0');
  return i > digits_begin && i < name.size() && name[i] == '.' ? n : -1;
}

bool is_non_text(std::string_view name) {
  for (std::string_view w : {"vision", "visual", "audio", "image", "mm_projector", "multi_modal", "speech"}) {
    if (name.find(w) != std::string_view::npos) return true;
  }
  return false;
}

/** The architecture visible in Hugging Face tensor names and shapes (text decoder only):
 *  embed_tokens [vocab, hidden]; layers.N → N + 1 layers; q_proj/k_proj out features with
 *  q_norm [head_dim] (Qwen3, Gemma 3) → heads and KV heads; gate/up_proj [intermediate, hidden];
 *  experts.E → E + 1 experts; tie_word_embeddings from the absence of lm_head. */
PartialArchitecture derive_architecture(const std::vector<SafetensorsTensor>& tensors) {
  PartialArchitecture a;
  std::int64_t q_out = 0, k_out = 0, max_layer = -1, max_expert = -1;
  bool has_embed = false, has_lm_head = false;
  for (const auto& t : tensors) {
    const std::string_view n = t.name;
    if (is_non_text(n)) continue;
    max_layer = std::max(max_layer, layer_index(n));
    max_expert = std::max(max_expert, expert_index(n));
    const bool matrix = t.shape.size() == 2;
    if (matrix && (ends_with(n, "embed_tokens.weight") || ends_with(n, "wte.weight") || ends_with(n, "word_embeddings.weight"))) {
      has_embed = true;
      a.vocab_size = t.shape[0];
      a.hidden_size = t.shape[1];
    } else if (matrix && (n == "lm_head.weight" || ends_with(n, ".lm_head.weight"))) {
      has_lm_head = true;
      if (a.vocab_size == 0) a.vocab_size = t.shape[0];
      if (a.hidden_size == 0) a.hidden_size = t.shape[1];
    } else if (matrix && ends_with(n, "self_attn.q_proj.weight")) {
      q_out = std::max(q_out, t.shape[0]);
    } else if (matrix && ends_with(n, "self_attn.k_proj.weight")) {
      k_out = std::max(k_out, t.shape[0]);
    } else if (t.shape.size() == 1 && ends_with(n, "self_attn.q_norm.weight")) {
      a.head_dim = t.shape[0];
    } else if (matrix && n.find(".experts.") == std::string_view::npos &&
               (ends_with(n, "mlp.gate_proj.weight") || ends_with(n, "mlp.up_proj.weight"))) {
      a.intermediate_size = std::max(a.intermediate_size, t.shape[0]);
    }
  }
  a.num_layers = max_layer + 1;
  a.num_experts = max_expert + 1;
  if (a.head_dim > 0 && q_out % a.head_dim == 0 && k_out % a.head_dim == 0) {
    a.num_attention_heads = q_out / a.head_dim;
    a.num_kv_heads = k_out / a.head_dim;
  }
  if (has_embed) a.tie_word_embeddings = !has_lm_head;
  return a;
}

void classify_quantization(SafetensorsHeader& h) {
  bool has_qweight = false, has_aux = false;
  for (const auto& t : h.tensors) {
    const std::string_view n = t.name;
    if (ends_with(n, ".qweight") || ends_with(n, ".weight_packed")) {
      has_qweight = true;
      h.packed_weight_elements += t.elements;  // bounded by parameter_count: no overflow
    } else if (ends_with(n, ".qzeros") || ends_with(n, ".scales") || ends_with(n, ".g_idx") ||
               ends_with(n, ".weight_scale") || ends_with(n, ".weight_zero_point") || ends_with(n, ".weight_shape")) {
      has_aux = true;
      h.quant_aux_elements += t.elements;
    }
  }
  h.packed_quantization = has_qweight;
  if (!has_qweight && !has_aux) h.quant_aux_elements = 0;
}

/// `message` followed by a guess of what the file is when it looks like something else.
Message with_file_hint(Message message, std::string_view bytes) {
  const std::size_t first = bytes.find_first_not_of(" \t\r\n");
  if (bytes.substr(0, 4) == "GGUF") {
    message.then(Message("error.safetensors.hint.gguf"));
  } else if (first != std::string_view::npos && bytes[first] == '{') {
    message.then(Message("error.safetensors.hint.json"));
  }
  return message;
}

}  // namespace

const SafetensorsDtypeInfo* safetensors_dtype(std::string_view name) {
  for (const auto& d : kSafetensorsDtypes) {
    if (d.name == name) return &d;
  }
  return nullptr;
}

std::int64_t safetensors_needed_bytes(std::string_view bytes, std::int64_t file_size_bytes) {
  if (file_size_bytes >= 0 && file_size_bytes < static_cast<std::int64_t>(bytes.size())) {
    file_size_bytes = static_cast<std::int64_t>(bytes.size());
  }
  if (bytes.size() < 8) {
    if (file_size_bytes >= 0 && file_size_bytes < 8) {
      fail(Message("error.safetensors.file_too_small").integer("file_size", file_size_bytes));
    }
    throw TruncatedInputError(kFileField, Message("error.safetensors.length_not_given"), 8, 0);
  }
  std::uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | static_cast<unsigned char>(bytes[static_cast<std::size_t>(i)]);
  if (n > static_cast<std::uint64_t>(kSafetensorsMaxHeaderBytes)) {
    fail(with_file_hint(Message("error.safetensors.header_too_long").text("length", decimal(n)), bytes));
  }
  const auto needed = static_cast<std::int64_t>(n) + 8;
  if (file_size_bytes >= 0 && needed > file_size_bytes) {
    fail(with_file_hint(Message("error.safetensors.header_past_end").text("length", decimal(n)).integer("file_size", file_size_bytes), bytes));
  }
  return needed;
}

SafetensorsHeader parse_safetensors_header(std::string_view bytes, std::int64_t file_size_bytes) {
  if (file_size_bytes >= 0 && file_size_bytes < static_cast<std::int64_t>(bytes.size())) {
    file_size_bytes = static_cast<std::int64_t>(bytes.size());
  }
  const std::int64_t needed = safetensors_needed_bytes(bytes, file_size_bytes);
  if (static_cast<std::int64_t>(bytes.size()) < needed) {
    throw TruncatedInputError(kFileField,
                              Message("error.safetensors.header_not_given").integer("needed", needed)
                                  .integer("given", static_cast<std::int64_t>(bytes.size())),
                              needed, 8);
  }
  SafetensorsHeader h;
  h.header_length = needed - 8;
  const std::string_view text = bytes.substr(8, static_cast<std::size_t>(h.header_length));
  if (const auto bad = detail::first_invalid_utf8(text)) {
    fail(with_file_hint(Message("error.safetensors.not_utf8").integer("byte", static_cast<std::int64_t>(*bad)), bytes));
  }
  HeaderSax sax;
  if (!json::sax_parse(text.data(), text.data() + text.size(), &sax)) {
    fail(sax.parse_error_message.value_or(Message("error.safetensors.not_json")));
  }
  h.metadata = std::move(sax.metadata);
  h.tensors = std::move(sax.tensors);
  std::sort(h.tensors.begin(), h.tensors.end(), [](const SafetensorsTensor& a, const SafetensorsTensor& b) {
    return a.data_begin != b.data_begin ? a.data_begin < b.data_begin : a.data_end < b.data_end;
  });
  // The reference reader requires the tensors to tile the data section: each begins where the
  // previous one ends, the first at 0.
  std::int64_t end = 0;
  const SafetensorsTensor* previous = nullptr;
  for (const auto& t : h.tensors) {
    if (t.data_begin != end) {
      // Offsets are not negative, so only a later tensor can begin before `end`.
      Message m(!previous ? "error.safetensors.gap_at_start" : t.data_begin < end ? "error.safetensors.overlap" : "error.safetensors.gap");
      m.text("tensor", detail::quote_for_message(t.name)).integer("begin", t.data_begin);
      if (previous) m.text("previous", detail::quote_for_message(previous->name)).integer("previous_end", end);
      fail(m);
    }
    end = t.data_end;
    previous = &t;
    const auto sum = detail::checked_add(h.parameter_count, t.elements);
    if (!sum) fail(Message("error.safetensors.element_count_overflow"));
    h.parameter_count = *sum;
  }
  h.weight_bytes = end;
  if (file_size_bytes >= 0) {
    const std::optional<std::int64_t> file_end = detail::checked_add(needed, end);
    if (!file_end || *file_end > file_size_bytes) {
      fail(Message("error.safetensors.data_past_end").integer("data", end).integer("header", needed).integer("file_size", file_size_bytes));
    }
    if (*file_end < file_size_bytes) {
      fail(Message("error.safetensors.trailing_bytes").integer("extra", file_size_bytes - *file_end));
    }
  }
  classify_quantization(h);
  h.architecture = derive_architecture(h.tensors);
  return h;
}

namespace {

/** SAX handler for model.safetensors.index.json: {"metadata": {"total_size": uint, ...},
 *  "weight_map": {name: file, ...}, ...}. Unknown keys, at any level, are skipped. */
class IndexSax {
 public:
  SafetensorsIndex index;
  bool saw_weight_map = false;
  std::optional<Message> parse_error_message;

  bool null() { return scalar(kNull); }
  bool boolean(bool) { return scalar(kBoolean); }
  bool number_integer(json::number_integer_t v) {
    if (at_total_size()) fail(Message("error.safetensors.index.total_size").text("value", decimal(std::int64_t{v})));
    return scalar(kNumber);
  }
  bool number_unsigned(json::number_unsigned_t v) {
    if (at_total_size()) {
      if (v > static_cast<std::uint64_t>(kInt64Max)) {
        fail(Message("error.safetensors.index.total_size_beyond_int64").text("value", decimal(std::uint64_t{v})));
      }
      index.total_size = static_cast<std::int64_t>(v);
      return true;
    }
    return scalar(kNumber);
  }
  bool number_float(json::number_float_t v, const json::string_t& text) {
    if (at_total_size()) {
      // Some writers store the size as a float; accept it when it is a whole number.
      if (!(v >= 0 && v < 9.2e18 && std::floor(v) == v)) {
        fail(Message("error.safetensors.index.total_size").text("value", detail::quote_for_message(text)));
      }
      index.total_size = static_cast<std::int64_t>(v);
      return true;
    }
    return scalar(kNumber);
  }
  bool string(json::string_t& v) {
    if (skip_ == 0 && depth_ == 2 && section_ == Section::weight_map) {
      if (!index.weight_map.emplace(key_, v).second) {
        fail(Message("error.safetensors.index.duplicate_name").text("name", detail::quote_for_message(key_)));
      }
      return true;
    }
    return scalar(kString);
  }
  bool binary(json::binary_t&) { return scalar(kBinary); }
  bool start_object(std::size_t) { return open(kObject, true); }
  bool start_array(std::size_t) { return open(kArray, false); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool key(json::string_t& k) {
    if (skip_ > 0) return true;
    if (depth_ == 1) {
      section_ = k == "metadata" ? Section::metadata : k == "weight_map" ? Section::weight_map : Section::other;
    } else {
      key_ = k;
    }
    return true;
  }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& ex) {
    parse_error_message = Message("error.safetensors.index.not_json_near").integer("byte", static_cast<std::int64_t>(position))
                              .text("detail", json_error_text(ex));
    return false;
  }

 private:
  enum class Section { metadata, weight_map, other };
  bool at_total_size() const { return skip_ == 0 && depth_ == 2 && section_ == Section::metadata && key_ == "total_size"; }
  bool scalar(const char* got) {
    if (skip_ > 0) return true;
    if (depth_ == 0) fail(Message("error.safetensors.index.not_object").term("got", got));
    if (depth_ == 1 && section_ != Section::other) {
      fail(Message("error.safetensors.index.section_not_object").text("section", section_ == Section::metadata ? "metadata" : "weight_map")
               .term("got", got));
    }
    if (depth_ == 2 && section_ == Section::weight_map) {
      fail(Message("error.safetensors.index.shard_not_string").text("name", detail::quote_for_message(key_)).term("got", got));
    }
    if (at_total_size()) fail(Message("error.safetensors.index.total_size_type").term("got", got));
    return true;
  }
  bool open(const char* got, bool object) {
    if (skip_ > 0) return ++skip_, true;
    if (depth_ == 0) {
      if (!object) fail(Message("error.safetensors.index.not_object").term("got", kArray));
      depth_ = 1;
      return true;
    }
    if (depth_ == 1 && section_ != Section::other) {
      if (!object) scalar(got);
      if (section_ == Section::weight_map) saw_weight_map = true;
      depth_ = 2;
      return true;
    }
    if (depth_ == 2 && section_ == Section::weight_map) scalar(got);
    if (at_total_size()) scalar(got);
    skip_ = 1;
    return true;
  }
  bool close() {
    if (skip_ > 0) return --skip_, true;
    --depth_;
    return true;
  }

  int depth_ = 0;
  int skip_ = 0;
  Section section_ = Section::other;
  std::string key_;
};

}  // namespace

SafetensorsIndex parse_safetensors_index(std::string_view text) {
  if (static_cast<std::int64_t>(text.size()) > kSafetensorsMaxHeaderBytes) {
    fail(Message("error.safetensors.index.too_large").integer("size", static_cast<std::int64_t>(text.size())));
  }
  if (const auto bad = detail::first_invalid_utf8(text)) {
    fail(Message("error.safetensors.index.not_utf8").integer("byte", static_cast<std::int64_t>(*bad)));
  }
  IndexSax sax;
  if (!json::sax_parse(text.data(), text.data() + text.size(), &sax)) {
    fail(sax.parse_error_message.value_or(Message("error.safetensors.index.not_json")));
  }
  if (!sax.saw_weight_map) fail(Message("error.safetensors.index.no_weight_map"));
  SafetensorsIndex index = std::move(sax.index);
  std::set<std::string> shards;
  for (const auto& [name, shard] : index.weight_map) shards.insert(shard);
  index.shards.assign(shards.begin(), shards.end());
  return index;
}

nlohmann::json safetensors_header_to_json(const SafetensorsHeader& h) {
  json dtypes = json::object();
  json tensors = json::array();
  for (const auto& t : h.tensors) {
    json& d = dtypes[t.dtype];
    if (d.is_null()) d = {{"tensors", 0}, {"elements", 0}, {"bytes", 0}};
    d["tensors"] = d["tensors"].get<std::int64_t>() + 1;
    d["elements"] = d["elements"].get<std::int64_t>() + t.elements;
    d["bytes"] = d["bytes"].get<std::int64_t>() + t.bytes();
    tensors.push_back({{"name", t.name}, {"dtype", t.dtype}, {"shape", t.shape},
                       {"data_offsets", {t.data_begin, t.data_end}}, {"elements", t.elements}, {"bytes", t.bytes()}});
  }
  json out = {
      {"format", "safetensors"},
      {"header_bytes", h.needed_bytes()},
      {"tensor_count", h.tensors.size()},
      {"parameter_count", h.parameter_count},
      {"weight_bytes", h.weight_bytes},
      {"dtypes", std::move(dtypes)},
      {"packed_quantization", h.packed_quantization},
      {"metadata", h.metadata},
      {"model", partial_architecture_to_json(h.architecture)},
      {"tensors", std::move(tensors)},
  };
  if (h.packed_quantization) {
    out["packed_weight_elements"] = h.packed_weight_elements;
    out["quant_aux_elements"] = h.quant_aux_elements;
  }
  return out;
}

nlohmann::json safetensors_index_to_json(const SafetensorsIndex& index) {
  json per_shard = json::object();
  for (const auto& shard : index.shards) per_shard[shard] = 0;
  for (const auto& [name, shard] : index.weight_map) per_shard[shard] = per_shard[shard].get<std::int64_t>() + 1;
  return {{"format", "safetensors-index"},
          {"total_size", index.total_size},
          {"tensor_count", index.weight_map.size()},
          {"shards", index.shards},
          {"tensors_per_shard", std::move(per_shard)}};
}

}  // namespace llmsizer
