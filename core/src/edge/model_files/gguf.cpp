// SPDX-License-Identifier: MIT
// GGUF header reader. Layout (ggml-org/ggml docs/gguf.md, v2/v3, little-endian):
//   magic "GGUF" | u32 version | u64 tensor_count | u64 metadata_kv_count
//   kv:     string key | u32 value_type | value
//   string: u64 length | bytes (no terminator)
//   array:  u32 element_type | u64 count | elements
//   tensor: string name | u32 n_dims | u64 dims[n_dims] | u32 ggml_type | u64 offset
//   padding to general.alignment, then tensor data (offsets are relative to its start).
// Every length and count is checked against the caps in gguf.hpp and, when the file size is
// known, against the bytes the file could hold, before anything is allocated from it.
#include "llmsizer/edge/gguf.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <numeric>
#include <stdexcept>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include "model_files/header_util.hpp"

namespace llmsizer {
namespace {

using detail::kInt64Max;
using detail::kFileField;
using detail::decimal;
/// Arrays of strings longer than this keep only their count (general.tags, languages: a few).
constexpr std::uint64_t kMaxKeptStringArray = 256;
/// Smallest encoding of one metadata entry: u64 key length (empty key) + u32 type + 1-byte value.
constexpr std::uint64_t kMinMetadataBytes = 8 + 4 + 1;
/// Smallest encoding of one tensor info: u64 name length + u32 n_dims + u32 type + u64 offset.
constexpr std::uint64_t kMinTensorInfoBytes = 8 + 4 + 4 + 8;

/// The part of the file a read belongs to, for messages: an entry named by a term ("metadata
/// entry", "metadata key", "tensor") and its index or quoted name; no term while the fixed fields
/// of the file header are read.
struct Entry {
  const char* term = nullptr;  ///< "gguf.entry.*", or null for the file header
  std::uint64_t index = 0;     ///< the entry's number, while its name is not read yet
  std::string_view raw_name;   ///< its key or tensor name as stored, once read
  bool named = false;
  /// "3", or the quoted key or tensor name: worked out only when a message is written (quoting
  /// every tensor name was 7% of inspecting a 3.9 MB header in WASM).
  std::string name() const { return named ? detail::quote_for_message(raw_name) : decimal(index); }
};

/// Fixed byte size of a scalar value type; 0 for string and array.
std::uint64_t scalar_size(GgufValueType t) {
  switch (t) {
    case GgufValueType::uint8: case GgufValueType::int8: case GgufValueType::boolean: return 1;
    case GgufValueType::uint16: case GgufValueType::int16: return 2;
    case GgufValueType::uint32: case GgufValueType::int32: case GgufValueType::float32: return 4;
    case GgufValueType::uint64: case GgufValueType::int64: case GgufValueType::float64: return 8;
    case GgufValueType::string: case GgufValueType::array: return 0;
  }
  return 0;
}

/// The little-endian u64 at `p` (GGUF lengths and counts), in one load.
std::uint64_t load_u64_le(const unsigned char* p) {
  std::uint64_t v;
  std::memcpy(&v, p, sizeof v);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap64(v);
#endif
  return v;
}

/// Sequential little-endian reader over the given prefix. Every read first calls `need`, which
/// tells apart "the prefix ends here" (TruncatedInputError) from "the file ends here" (InputError).
class Reader {
 public:
  Reader(std::string_view bytes, std::int64_t file_size) : bytes_(bytes), file_size_(file_size) {}

  std::uint64_t pos() const { return pos_; }
  Entry entry;  ///< what is being read, for messages

  /// Message `id` about the field `item` ("gguf.item.<item>" names it) of the current entry; a
  /// field of the file header itself has its own sentence, `<id>_header`.
  Message at(const std::string& id, const char* item) const {
    Message m(entry.term ? id : id + "_header");
    m.term("item", std::string("gguf.item.") + item);
    if (entry.term) m.term("entry", entry.term).text("entry", entry.name());
    return m;
  }
  /// Message `id` about a value of the current entry (values are read only inside an entry).
  Message of_entry(const char* id) const {
    if (!entry.term) throw std::logic_error("a GGUF value read outside a metadata entry");
    return Message(id).term("entry", entry.term).text("entry", entry.name());
  }

  void need(std::uint64_t n, const char* item) const {
    const std::uint64_t available = bytes_.size() - pos_;
    if (n <= available) return;
    if (n > static_cast<std::uint64_t>(kInt64Max) - pos_) {
      throw InputError(kFileField, at("error.gguf.beyond_any_file", item).text("claimed", decimal(n)));
    }
    const auto end = static_cast<std::int64_t>(pos_ + n);
    if (file_size_ >= 0 && end > file_size_) {
      throw InputError(kFileField, at("error.gguf.past_end", item).integer("needed", end).integer("file_size", file_size_));
    }
    throw TruncatedInputError(
        kFileField,
        at("error.gguf.prefix_ends", item).integer("given", static_cast<std::int64_t>(bytes_.size())).integer("needed", end),
        end, static_cast<std::int64_t>(pos_));
  }

  /// Bytes the rest of the file can hold, or -1 when the file size is unknown.
  std::int64_t file_bytes_left() const {
    return file_size_ < 0 ? -1 : file_size_ - static_cast<std::int64_t>(pos_);
  }

  std::uint64_t uint(int width, const char* item) {
    need(static_cast<std::uint64_t>(width), item);
    std::uint64_t v = 0;
    for (int i = width - 1; i >= 0; --i) {
      v = (v << 8) | static_cast<unsigned char>(bytes_[static_cast<std::size_t>(pos_) + static_cast<std::size_t>(i)]);
    }
    pos_ += static_cast<std::uint64_t>(width);
    return v;
  }
  std::uint32_t u32(const char* item) { return static_cast<std::uint32_t>(uint(4, item)); }
  std::uint64_t u64(const char* item) { return uint(8, item); }

  std::string_view take(std::uint64_t n, const char* item) {
    need(n, item);
    // need() checked pos_ + n <= bytes_.size(), so both fit size_t (32 bits in WASM).
    std::string_view s = bytes_.substr(static_cast<std::size_t>(pos_), static_cast<std::size_t>(n));
    pos_ += n;
    return s;
  }
  void skip(std::uint64_t n, const char* item) {
    need(n, item);
    pos_ += n;
  }

  /// A GGUF string of at most `max_bytes` bytes.
  std::string_view string(std::uint64_t max_bytes, const char* item) {
    const std::uint64_t len = u64(item);
    if (len > max_bytes) {
      throw InputError(kFileField, at("error.gguf.string_too_long", item).text("length", decimal(len))
                                   .integer("limit", static_cast<std::int64_t>(max_bytes)));
    }
    return take(len, item);
  }

  /// Steps over `count` GGUF strings of at most `max_bytes` bytes each, reading only their
  /// lengths: a vocabulary's tokens and merges (10^5 strings, 3-4 MB) that sizing never looks at.
  /// One bounds check per string and no copy; the first string that is too long or runs past the
  /// bytes in hand is read again by `string`, which raises the error it always did (same message,
  /// same needed_bytes for a short prefix).
  void skip_strings(std::uint64_t count, std::uint64_t max_bytes, const char* item) {
    const auto* data = reinterpret_cast<const unsigned char*>(bytes_.data());
    const std::uint64_t size = bytes_.size();
    std::uint64_t pos = pos_;
    for (; count > 0 && size - pos >= 8; --count) {
      const std::uint64_t len = load_u64_le(data + pos);
      if (len > max_bytes || len > size - pos - 8) break;
      pos += 8 + len;
    }
    pos_ = pos;
    for (; count > 0; --count) string(max_bytes, item);  // throws on the string that stopped the walk
  }

 private:
  std::string_view bytes_;
  std::int64_t file_size_;
  std::uint64_t pos_ = 0;
};

bool valid_value_type(std::uint32_t t) { return t <= static_cast<std::uint32_t>(GgufValueType::float64); }

GgufValueType checked_value_type(std::uint32_t t, const Reader& r, const char* item) {
  if (!valid_value_type(t)) {
    throw InputError(kFileField, r.of_entry("error.gguf.value_type").term("item", std::string("gguf.item.") + item)
                                 .integer("type", std::int64_t{t}));
  }
  return static_cast<GgufValueType>(t);
}

/// Decodes one fixed-size scalar of type `t` from `raw` (little-endian) into `out`.
void decode_scalar(GgufValueType t, std::uint64_t raw, GgufValue& out, const Reader& r) {
  switch (t) {
    case GgufValueType::uint8: case GgufValueType::uint16: case GgufValueType::uint32:
      out.int_value = static_cast<std::int64_t>(raw);
      break;
    case GgufValueType::uint64:
      out.uint_value = raw;
      if (raw > static_cast<std::uint64_t>(kInt64Max)) {
        out.uint_overflow = true;
        out.int_value = -1;
      } else {
        out.int_value = static_cast<std::int64_t>(raw);
      }
      break;
    case GgufValueType::int8: out.int_value = static_cast<std::int8_t>(raw); break;
    case GgufValueType::int16: out.int_value = static_cast<std::int16_t>(raw); break;
    case GgufValueType::int32: out.int_value = static_cast<std::int32_t>(raw); break;
    case GgufValueType::int64: out.int_value = static_cast<std::int64_t>(raw); break;
    case GgufValueType::boolean:
      if (raw > 1) {
        throw InputError(kFileField, r.of_entry("error.gguf.bool_value").text("value", decimal(raw)));
      }
      out.int_value = static_cast<std::int64_t>(raw);
      break;
    case GgufValueType::float32: {
      float f;
      const auto bits = static_cast<std::uint32_t>(raw);
      std::memcpy(&f, &bits, sizeof f);
      out.float_value = f;
      break;
    }
    case GgufValueType::float64: {
      double d;
      std::memcpy(&d, &raw, sizeof d);
      out.float_value = d;
      break;
    }
    case GgufValueType::string: case GgufValueType::array: break;
  }
}

GgufValue read_value(Reader& r, GgufValueType type, int depth, bool keep) {
  GgufValue v;
  v.type = type;
  if (type == GgufValueType::string) {
    v.string_value = detail::sanitize_utf8(r.string(kGgufMaxStringBytes, "string_value"));
    return v;
  }
  if (type != GgufValueType::array) {
    decode_scalar(type, r.uint(static_cast<int>(scalar_size(type)), "value"), v, r);
    return v;
  }
  // Array: u32 element type, u64 count, elements.
  v.element_type = checked_value_type(r.u32("array_element_type"), r, "array_element_type");
  v.array_count = r.u64("array_length");
  if (v.array_count > kGgufMaxArrayCount) {
    throw InputError(kFileField, r.of_entry("error.gguf.array_too_long").text("elements", decimal(v.array_count))
                                 .integer("limit", static_cast<std::int64_t>(kGgufMaxArrayCount)));
  }
  if (v.element_type == GgufValueType::array && depth + 1 >= kGgufMaxArrayDepth) {
    throw InputError(kFileField, r.of_entry("error.gguf.arrays_too_deep").integer("depth", kGgufMaxArrayDepth));
  }
  const std::uint64_t fixed = scalar_size(v.element_type);
  // Smallest bytes per element: fixed size, or an empty string (u64 length), or an empty array.
  const std::uint64_t min_element = fixed != 0 ? fixed : (v.element_type == GgufValueType::string ? 8 : 12);
  const std::int64_t left = r.file_bytes_left();
  if (left >= 0 && v.array_count > static_cast<std::uint64_t>(left) / min_element) {
    throw InputError(kFileField, r.of_entry("error.gguf.array_beyond_file").text("elements", decimal(v.array_count))
                                 .integer("left", left));
  }
  if (fixed != 0) {
    const std::uint64_t total = v.array_count * fixed;  // ≤ 2^28 × 8: no overflow
    if (!keep || v.array_count > kGgufMaxKeptArray) {
      r.skip(total, "array_values");
      return v;
    }
    r.need(total, "array_values");
    v.array_values_kept = true;
    const bool is_float = v.element_type == GgufValueType::float32 || v.element_type == GgufValueType::float64;
    // array_count <= kGgufMaxKeptArray here (checked above), so it fits size_t.
    const auto kept = static_cast<std::size_t>(v.array_count);
    (is_float ? v.array_floats.reserve(kept) : v.array_ints.reserve(kept));
    for (std::uint64_t i = 0; i < v.array_count; ++i) {
      GgufValue element;
      decode_scalar(v.element_type, r.uint(static_cast<int>(fixed), "array_values"), element, r);
      if (is_float) {
        v.array_floats.push_back(element.float_value);
      } else {
        v.array_ints.push_back(element.int_value);  // uint64 above INT64_MAX is kept as -1
      }
    }
    return v;
  }
  // Strings not kept (vocabularies, merges) are stepped over by their lengths; kept strings (at
  // most kMaxKeptStringArray) and nested arrays are read one by one (each is at least 8 or 12
  // bytes, so the loop is bounded by the input size). Nested arrays keep only their count.
  const bool keep_strings = keep && v.element_type == GgufValueType::string && v.array_count <= kMaxKeptStringArray;
  v.array_values_kept = keep_strings;
  if (v.element_type == GgufValueType::string && !keep_strings) {
    r.skip_strings(v.array_count, kGgufMaxStringBytes, "array_string");
    return v;
  }
  for (std::uint64_t i = 0; i < v.array_count; ++i) {
    if (v.element_type == GgufValueType::string) {
      v.array_strings.push_back(detail::sanitize_utf8(r.string(kGgufMaxStringBytes, "array_string")));
    } else {
      read_value(r, GgufValueType::array, depth + 1, false);
    }
  }
  return v;
}

/// The term saying which removed ggml types an unknown type id was, or null.
const char* removed_type_term(std::uint32_t id) {
  if (id == 4 || id == 5) return "gguf.removed_type.q4_2";
  if (id >= 31 && id <= 33) return "gguf.removed_type.q4_0_4_4";
  if (id >= 36 && id <= 38) return "gguf.removed_type.iq4_nl_4_4";
  return nullptr;
}

std::optional<std::int64_t> int_of(const GgufHeader& h, const std::string& key) {
  const GgufValue* v = h.find(key);
  return v ? v->as_int() : std::nullopt;
}

void derive_architecture(GgufHeader& h) {
  PartialArchitecture& a = h.architecture;
  if (const GgufValue* v = h.find("general.architecture"); v && v->type == GgufValueType::string) {
    a.architecture = v->string_value;
  }
  if (const GgufValue* v = h.find("general.name"); v && v->type == GgufValueType::string) h.name = v->string_value;
  if (auto ft = int_of(h, "general.file_type"); ft && *ft >= 0 && *ft <= std::numeric_limits<int>::max()) {
    h.file_type = static_cast<int>(*ft);
  }
  const std::string p = a.architecture + ".";
  auto get = [&](const char* key) { return int_of(h, p + key).value_or(0); };
  if (!a.architecture.empty()) {
    a.max_position_embeddings = get("context_length");
    a.hidden_size = get("embedding_length");
    a.num_layers = get("block_count");
    a.intermediate_size = get("feed_forward_length");
    a.num_attention_heads = get("attention.head_count");
    a.num_kv_heads = get("attention.head_count_kv");
    a.head_dim = get("attention.key_length");
    a.num_experts = get("expert_count");
    a.experts_per_token = get("expert_used_count");
    a.sliding_window = get("attention.sliding_window");
    a.vocab_size = get("vocab_size");
  }
  // gguf.md: without head_count_kv the model does not use GQA.
  if (a.num_kv_heads == 0) a.num_kv_heads = a.num_attention_heads;
  const GgufTensorInfo* embd = nullptr;
  bool has_output = false;
  for (const auto& t : h.tensors) {
    if (t.name == "token_embd.weight") embd = &t;
    if (t.name == "output.weight") has_output = true;
  }
  if (a.vocab_size == 0) {
    if (const GgufValue* tokens = h.find("tokenizer.ggml.tokens"); tokens && tokens->type == GgufValueType::array) {
      a.vocab_size = static_cast<std::int64_t>(tokens->array_count);
    } else if (embd && embd->n_dims == 2) {
      a.vocab_size = embd->dims[1];
    }
  }
  if (embd) {
    if (a.hidden_size == 0 && embd->n_dims == 2) a.hidden_size = embd->dims[0];
    a.tie_word_embeddings = !has_output;
  }
}

}  // namespace


std::optional<std::int64_t> ggml_tensor_bytes(const GgmlTypeInfo& type, const std::int64_t* dims, int n_dims) {
  const std::int64_t row = n_dims > 0 ? dims[0] : 1;
  if (row < 0 || row % type.block_elements != 0) return std::nullopt;
  std::optional<std::int64_t> bytes = detail::checked_mul(row / type.block_elements, type.block_bytes);
  for (int i = 1; i < n_dims && bytes; ++i) bytes = detail::checked_mul(*bytes, dims[i]);
  return bytes;
}

std::string_view gguf_value_type_name(GgufValueType type) {
  static constexpr std::string_view names[] = {"uint8", "int8",   "uint16", "int16", "uint32", "int32", "float32",
                                               "bool",  "string", "array",  "uint64", "int64", "float64"};
  const auto i = static_cast<std::uint32_t>(type);
  return i < std::size(names) ? names[i] : std::string_view("unknown");
}

bool GgufValue::is_integer() const {
  switch (type) {
    case GgufValueType::float32: case GgufValueType::float64: case GgufValueType::string: case GgufValueType::array:
      return false;
    default:
      return true;
  }
}

std::optional<std::int64_t> GgufValue::as_int() const {
  if (is_integer()) {
    if (uint_overflow) return std::nullopt;
    return int_value;
  }
  if (type == GgufValueType::array && array_values_kept && !array_ints.empty()) {
    return *std::max_element(array_ints.begin(), array_ints.end());
  }
  return std::nullopt;
}

const GgufValue* GgufHeader::find(std::string_view key) const {
  for (const auto& kv : metadata) {
    if (kv.key == key) return &kv.value;
  }
  return nullptr;
}

GgufHeader parse_gguf_header(std::string_view bytes, std::int64_t file_size_bytes) {
  // A file size smaller than the bytes in hand is a caller mistake; the bytes win.
  if (file_size_bytes >= 0 && file_size_bytes < static_cast<std::int64_t>(bytes.size())) {
    file_size_bytes = static_cast<std::int64_t>(bytes.size());
  }
  Reader r(bytes, file_size_bytes);
  GgufHeader h;

  const std::string_view magic = r.take(4, "magic");
  if (magic != "GGUF") {
    Message m("error.gguf.not_gguf");
    if (magic == "lmgg" || magic == "fmgg" || magic == "tjgg") {
      m.then(Message("error.gguf.not_gguf.older_ggml"));
    } else if (!magic.empty() && magic[0] == '{') {
      m.then(Message("error.gguf.not_gguf.json"));
    } else if (bytes.size() >= 9 && bytes[8] == '{') {
      m.then(Message("error.gguf.not_gguf.safetensors"));
    }
    throw InputError(kFileField, m);
  }
  h.version = r.u32("version");
  if (h.version == 1) throw InputError(kFileField, Message("error.gguf.version_1"));
  if ((h.version & 0xFFFFu) == 0 && (h.version >> 24) >= 1 && (h.version >> 24) <= 3) {
    throw InputError(kFileField, Message("error.gguf.big_endian").integer("version", std::int64_t{h.version >> 24}));
  }
  if (h.version != 2 && h.version != 3) {
    throw InputError(kFileField, Message("error.gguf.unsupported_version").integer("version", std::int64_t{h.version}));
  }
  h.tensor_count = r.u64("tensor_count");
  h.metadata_count = r.u64("metadata_count");
  if (h.tensor_count > kGgufMaxTensors) {
    throw InputError(kFileField, Message("error.gguf.too_many_tensors").text("tensors", decimal(h.tensor_count))
                                 .integer("limit", static_cast<std::int64_t>(kGgufMaxTensors)));
  }
  if (h.metadata_count > kGgufMaxMetadata) {
    throw InputError(kFileField, Message("error.gguf.too_many_metadata").text("entries", decimal(h.metadata_count))
                                 .integer("limit", static_cast<std::int64_t>(kGgufMaxMetadata)));
  }
  if (const std::int64_t left = r.file_bytes_left();
      left >= 0 && h.tensor_count * kMinTensorInfoBytes + h.metadata_count * kMinMetadataBytes >
                       static_cast<std::uint64_t>(left)) {
    throw InputError(kFileField, Message("error.gguf.counts_beyond_file").text("tensors", decimal(h.tensor_count))
                                 .text("entries", decimal(h.metadata_count)).integer("file_size", file_size_bytes));
  }

  std::unordered_set<std::string_view> seen;
  for (std::uint64_t i = 0; i < h.metadata_count; ++i) {
    r.entry = {"gguf.entry.metadata_entry", i, {}, false};
    const std::string_view key = r.string(kGgufMaxKeyBytes, "key");
    if (const auto bad = detail::first_invalid_utf8(key)) {
      throw InputError(kFileField, Message("error.gguf.key_not_utf8").integer("entry", static_cast<std::int64_t>(i))
                                   .integer("byte", static_cast<std::int64_t>(*bad)));
    }
    if (!seen.insert(key).second) {
      throw InputError(kFileField, Message("error.gguf.duplicate_key").text("key", detail::quote_for_message(key)));
    }
    r.entry = {"gguf.entry.metadata_key", i, key, true};
    const GgufValueType type = checked_value_type(r.u32("value_type"), r, "value_type");
    h.metadata.push_back({std::string(key), read_value(r, type, 0, true)});
  }

  if (const GgufValue* a = h.find("general.alignment")) {
    const auto v = a->as_int();
    if (!a->is_integer() || !v || *v <= 0 || *v > kGgufMaxAlignment || (*v & (*v - 1)) != 0) {
      Message m = v ? Message("error.gguf.alignment").integer("got", *v) : Message("error.gguf.alignment_not_integer");
      throw InputError(kFileField, m.integer("max", kGgufMaxAlignment));
    }
    h.alignment = *v;
  }

  seen.clear();
  h.tensors.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(h.tensor_count, 4096)));
  for (std::uint64_t i = 0; i < h.tensor_count; ++i) {
    r.entry = {"gguf.entry.tensor", i, {}, false};
    GgufTensorInfo t;
    const std::string_view name = r.string(kGgufMaxTensorNameBytes, "name");
    if (const auto bad = detail::first_invalid_utf8(name)) {
      throw InputError(kFileField, Message("error.gguf.tensor_name_not_utf8").integer("tensor", static_cast<std::int64_t>(i))
                                   .integer("byte", static_cast<std::int64_t>(*bad)));
    }
    if (!seen.insert(name).second) {
      throw InputError(kFileField, Message("error.gguf.duplicate_tensor").text("tensor", detail::quote_for_message(name)));
    }
    t.name = std::string(name);
    const auto quoted = [name] { return detail::quote_for_message(name); };  // for messages only
    r.entry = {"gguf.entry.tensor", i, name, true};
    const std::uint32_t n_dims = r.u32("dimension_count");
    if (n_dims > 4) {
      throw InputError(kFileField, Message("error.gguf.too_many_dimensions").text("tensor", quoted())
                                   .integer("dimensions", std::int64_t{n_dims}));
    }
    t.n_dims = static_cast<int>(n_dims);
    std::int64_t elements = 1;
    for (std::uint32_t d = 0; d < n_dims; ++d) {
      const std::uint64_t dim = r.u64("dimensions");
      if (dim > static_cast<std::uint64_t>(kInt64Max)) {
        throw InputError(kFileField, Message("error.gguf.dimension_beyond_int64").text("tensor", quoted()).text("dimension", decimal(dim)));
      }
      t.dims[d] = static_cast<std::int64_t>(dim);
      const auto product = detail::checked_mul(elements, t.dims[d]);
      if (!product) {
        throw InputError(kFileField, Message("error.gguf.dimensions_overflow").text("tensor", quoted()));
      }
      elements = *product;
    }
    t.elements = elements;
    const std::uint32_t type_id = r.u32("type");
    const GgmlTypeInfo* type = type_id <= static_cast<std::uint32_t>(std::numeric_limits<int>::max())
                                   ? ggml_type_info(static_cast<int>(type_id))
                                   : nullptr;
    if (!type) {
      const char* removed = removed_type_term(type_id);
      Message m(removed ? "error.gguf.removed_type" : "error.gguf.unknown_type");
      m.text("tensor", quoted()).integer("type", std::int64_t{type_id});
      if (removed) m.term("removed", removed);
      throw InputError(kFileField, m);
    }
    t.type_id = type->id;
    const auto nbytes = ggml_tensor_bytes(*type, t.dims.data(), t.n_dims);
    if (!nbytes) {
      if (t.dims[0] % type->block_elements != 0) {
        throw InputError(kFileField, Message("error.gguf.partial_block").text("tensor", quoted()).integer("row", t.dims[0])
                                     .text("type", type->name).integer("block", type->block_elements));
      }
      throw InputError(kFileField, Message("error.gguf.tensor_bytes_overflow").text("tensor", quoted()));
    }
    t.bytes = *nbytes;
    t.offset = r.u64("data_offset");
    if (t.offset % static_cast<std::uint64_t>(h.alignment) != 0) {
      throw InputError(kFileField, Message("error.gguf.misaligned").text("tensor", quoted()).text("offset", decimal(t.offset))
                                   .integer("alignment", h.alignment));
    }
    h.tensors.push_back(std::move(t));
  }
  h.header_bytes = static_cast<std::int64_t>(r.pos());
  h.data_offset = (h.header_bytes + h.alignment - 1) / h.alignment * h.alignment;  // header_bytes < 2^63 - 2^20

  // Tensor data must not overlap; offsets are relative to data_offset.
  std::vector<std::size_t> order(h.tensors.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return h.tensors[a].offset < h.tensors[b].offset; });
  std::int64_t data_bytes = 0;  // furthest tensor end, relative to data_offset
  const GgufTensorInfo* previous = nullptr;
  for (std::size_t idx : order) {
    const GgufTensorInfo& t = h.tensors[idx];
    const std::optional<std::int64_t> end =
        t.offset > static_cast<std::uint64_t>(kInt64Max) ? std::nullopt
                                                         : detail::checked_add(static_cast<std::int64_t>(t.offset), t.bytes);
    const std::optional<std::int64_t> file_end = end ? detail::checked_add(*end, h.data_offset) : std::nullopt;
    if (!file_end) {
      throw InputError(kFileField, Message("error.gguf.tensor_end_overflow").text("tensor", detail::quote_for_message(t.name))
                                   .text("offset", decimal(t.offset)));
    }
    if (previous && static_cast<std::int64_t>(t.offset) < data_bytes) {
      throw InputError(kFileField, Message("error.gguf.overlap").text("previous", detail::quote_for_message(previous->name))
                                   .text("tensor", detail::quote_for_message(t.name)).text("offset", decimal(t.offset))
                                   .integer("previous_end", data_bytes));
    }
    data_bytes = std::max(data_bytes, *end);
    previous = &t;
    // Totals cannot overflow: tensors do not overlap and all end below 2^63.
    h.weight_bytes += t.bytes;
  }
  for (const auto& t : h.tensors) {
    const auto sum = detail::checked_add(h.parameter_count, t.elements);
    if (!sum) throw InputError(kFileField, Message("error.gguf.element_count_overflow"));
    h.parameter_count = *sum;
  }
  h.data_end = h.data_offset + data_bytes;
  if (file_size_bytes >= 0 && h.data_end > file_size_bytes) {
    throw InputError(kFileField, Message("error.gguf.data_past_end").integer("end", h.data_end).integer("file_size", file_size_bytes));
  }
  derive_architecture(h);
  return h;
}

std::string_view llama_file_type_name(int file_type) {
  // llama.cpp include/llama.h `enum llama_ftype` (gguf.md lists 0–18); 5, 6 and 33–35 were removed.
  static constexpr std::pair<int, std::string_view> names[] = {
      {0, "F32"},       {1, "F16"},       {2, "Q4_0"},       {3, "Q4_1"},      {4, "Q4_1_SOME_F16"},
      {7, "Q8_0"},      {8, "Q5_0"},      {9, "Q5_1"},       {10, "Q2_K"},     {11, "Q3_K_S"},
      {12, "Q3_K_M"},   {13, "Q3_K_L"},   {14, "Q4_K_S"},    {15, "Q4_K_M"},   {16, "Q5_K_S"},
      {17, "Q5_K_M"},   {18, "Q6_K"},     {19, "IQ2_XXS"},   {20, "IQ2_XS"},   {21, "Q2_K_S"},
      {22, "IQ3_XS"},   {23, "IQ3_XXS"},  {24, "IQ1_S"},     {25, "IQ4_NL"},   {26, "IQ3_S"},
      {27, "IQ3_M"},    {28, "IQ2_S"},    {29, "IQ2_M"},     {30, "IQ4_XS"},   {31, "IQ1_M"},
      {32, "BF16"},     {36, "TQ1_0"},    {37, "TQ2_0"},     {38, "MXFP4_MOE"}, {39, "NVFP4"},
      {40, "Q1_0"},
  };
  for (const auto& [id, name] : names) {
    if (id == file_type) return name;
  }
  return {};
}

namespace {

nlohmann::json value_to_json(const GgufValue& v) {
  using nlohmann::json;
  switch (v.type) {
    case GgufValueType::string: return v.string_value;
    case GgufValueType::boolean: return v.int_value != 0;
    case GgufValueType::float32: case GgufValueType::float64:
      return std::isfinite(v.float_value) ? json(v.float_value) : json(nullptr);
    case GgufValueType::uint64: return v.uint_value;
    case GgufValueType::array: {
      json out = {{"array", gguf_value_type_name(v.element_type)}, {"count", v.array_count}};
      if (v.array_values_kept) {
        json values = json::array();
        if (v.element_type == GgufValueType::string) {
          for (const auto& s : v.array_strings) values.push_back(s);
        } else if (!v.array_floats.empty()) {
          for (double f : v.array_floats) values.push_back(std::isfinite(f) ? json(f) : json(nullptr));
        } else {
          for (std::int64_t n : v.array_ints) {
            values.push_back(v.element_type == GgufValueType::boolean ? json(n != 0) : json(n));
          }
        }
        out["values"] = std::move(values);
      }
      return out;
    }
    default: return v.int_value;
  }
}

}  // namespace

nlohmann::json gguf_header_to_json(const GgufHeader& h) {
  using nlohmann::json;
  // Totals per type in plain integers, written once (adding up inside the JSON objects, and
  // building each tensor from an initializer list, which copies every value, was a third of
  // gguf_header_to_json in WASM).
  struct TypeTotals {
    std::int64_t tensors = 0, elements = 0, bytes = 0;
  };
  std::map<std::string_view, TypeTotals> totals;  // type names from ggml_type_info, static
  json tensors = json::array();
  tensors.get_ref<json::array_t&>().reserve(h.tensors.size());
  for (const auto& t : h.tensors) {
    const std::string_view type = ggml_type_info(t.type_id)->name;
    TypeTotals& d = totals[type];
    ++d.tensors;
    d.elements += t.elements;
    d.bytes += t.bytes;
    json shape = json::array();
    for (int i = 0; i < t.n_dims; ++i) shape.push_back(t.dims[static_cast<std::size_t>(i)]);
    json tensor = json::object();
    tensor["name"] = t.name;
    tensor["type"] = type;
    tensor["shape"] = std::move(shape);
    tensor["offset"] = t.offset;
    tensor["elements"] = t.elements;
    tensor["bytes"] = t.bytes;
    tensors.push_back(std::move(tensor));
  }
  json dtypes = json::object();
  for (const auto& [type, d] : totals) {
    json& out = dtypes[std::string(type)];
    out["tensors"] = d.tensors;
    out["elements"] = d.elements;
    out["bytes"] = d.bytes;
  }
  json metadata = json::object();
  for (const auto& kv : h.metadata) metadata[kv.key] = value_to_json(kv.value);
  json out = {
      {"format", "gguf"},
      {"version", h.version},
      {"tensor_count", h.tensor_count},
      {"metadata_count", h.metadata_count},
      {"alignment", h.alignment},
      {"header_bytes", h.header_bytes},
      {"data_offset_bytes", h.data_offset},
      {"file_bytes_min", h.data_end},
      {"weight_bytes", h.weight_bytes},
      {"parameter_count", h.parameter_count},
      {"name", h.name},
      {"architecture", h.architecture.architecture},
      {"dtypes", std::move(dtypes)},
      {"model", partial_architecture_to_json(h.architecture)},
      {"metadata", std::move(metadata)},
      {"tensors", std::move(tensors)},
  };
  if (h.file_type >= 0) {
    out["file_type"] = {{"id", h.file_type}, {"name", std::string(llama_file_type_name(h.file_type))}};
  }
  return out;
}

}  // namespace llmsizer
