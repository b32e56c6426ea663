// SPDX-License-Identifier: MIT
// A model repository's files (api.hpp plan_repository): from the listing a hub returns for a
// repository, which files make up the model and which of them to read. Pure: the fronts (the CLI
// with libcurl, the page with fetch) do the reading and bring the headers back to
// describe_repository_model (model_file.cpp).
//
// The listing is the Hugging Face Hub's `GET /api/models/{repo_id}?blobs=true` answer
// (huggingface_hub hf_api.py `model_info(files_metadata=True)` sends `blobs=true`): `id`, `sha`,
// `gated` (false, "auto" or "manual"), `siblings` [{"rfilename", "size", "lfs": {"size", ...}}].
// File naming, as the Hub's own tools read it:
// - sharded safetensors: `model.safetensors.index.json` maps tensors to shard files
//   (huggingface.js packages/hub/src/lib/parse-safetensors-metadata.ts SAFETENSORS_INDEX_FILE);
// - split GGUF: `<prefix>-00001-of-00003.gguf` (llama.cpp tools/gguf-split: "%s-%05d-of-%05d.gguf");
// - llama.cpp's quantization name in the file name (`...-Q4_K_M.gguf`, llama-quantize's names,
//   which are this core's GGUF weight format ids in upper case).
#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "llmsizer/api.hpp"
#include "llmsizer/ascii.hpp"
#include "llmsizer/error.hpp"
#include "llmsizer/edge/file_header.hpp"
#include "llmsizer/precision.hpp"
#include "request/read.hpp"
#include "json_text.hpp"

namespace llmsizer::edge {
namespace {

// Plain json, parsed as model_file.cpp parses (string_view iterators): one parser in the WASM module.
using json = nlohmann::json;

std::string base_name(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

/** The GGUF weight format a file name names (`Llama-3.1-8B-Instruct-Q4_K_M.gguf` → q4_k_m), or
 *  nullptr. The longest format id found as a whole token (delimited by anything but a letter or a
 *  digit, so Q2_K_S is not Q2_K and IQ4_XS is not Q4_...). F16/BF16/F32 name gguf-f16/bf16/f32. */
const WeightFormat* gguf_format_in_name(const std::string& file_name, std::string* label) {
  const std::string name = ascii_lower(file_name);
  const WeightFormat* best = nullptr;
  std::size_t best_at = 0;
  std::size_t best_length = 0;
  for (const WeightFormat* f = weight_formats_begin(); f != weight_formats_end(); ++f) {
    if (f->ecosystem != Ecosystem::gguf || f->id == "q2_k_2023") continue;
    std::string token(f->id);
    if (starts_with(token, "gguf-")) token = token.substr(5);  // gguf-f16 is named F16 in files
    for (std::size_t at = name.find(token); at != std::string::npos; at = name.find(token, at + 1)) {
      const std::size_t end = at + token.size();
      const bool starts = at == 0 || !std::isalnum(static_cast<unsigned char>(name[at - 1]));
      const bool stops = end == name.size() || !std::isalnum(static_cast<unsigned char>(name[end]));
      if (starts && stops && token.size() > best_length) {
        best = f;
        best_at = at;
        best_length = token.size();
      }
    }
  }
  if (best && label) {
    *label = file_name.substr(best_at, best_length);
    for (auto& c : *label) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return best;
}

/// "-00002-of-00005.gguf" at the end of a split GGUF part: sets the prefix, part and count.
bool split_part(const std::string& name, std::string& prefix, int& part, int& count) {
  // <prefix>-NNNNN-of-NNNNN.gguf: 5 + 4 + 5 + 5 = 19 characters after the prefix.
  if (name.size() < 20 || !ends_with_any_case(name, ".gguf")) return false;
  const std::string tail = name.substr(name.size() - 20);  // "-00001-of-00003.gguf"
  if (tail[0] != '-' || tail.compare(6, 4, "-of-") != 0) return false;
  for (std::size_t i : {1u, 2u, 3u, 4u, 5u, 10u, 11u, 12u, 13u, 14u}) {
    if (!std::isdigit(static_cast<unsigned char>(tail[i]))) return false;
  }
  prefix = name.substr(0, name.size() - 20);
  auto number = [&](std::size_t at) {  // five digits, checked above
    int n = 0;
    for (std::size_t i = at; i < at + 5; ++i) n = 10 * n + (tail[i] - '0');
    return n;
  };
  part = number(1);
  count = number(10);
  return part >= 1 && count >= part;
}

struct Quant {
  std::string key;   ///< the split prefix, or the whole name
  std::string file;  ///< the first part
  std::vector<std::string> parts;
  std::int64_t size = 0;  ///< -1 when a part's size is not listed
  std::string label;
  const WeightFormat* format = nullptr;
  int expected_parts = 1;
};

}  // namespace

std::string plan_repository(const std::string& listing_json, const std::string& chosen_file) {
  const std::string_view text(listing_json);
  const json listing = parse_json_or_discarded(text);
  if (listing.is_discarded() || !listing.is_object() || !listing.contains("siblings") || !listing["siblings"].is_array()) {
    throw InputError("listing", Message("error.repository.listing"));
  }
  // A member the Hub writes as a string; anything else (a mirror's null) reads as empty.
  auto text_of = [&](const char* key) {
    const auto it = listing.find(key);
    return it != listing.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  const std::string id = listing.contains("id") ? text_of("id") : text_of("modelId");
  // Plain containers the module already has (a json object, vectors, linear searches): each new
  // std::map, std::sort or std::stoi instantiation costs the page's WASM download kilobytes.
  std::vector<std::string> names;
  json sizes = json::object();  // name -> bytes, -1 when not listed
  for (const auto& s : listing["siblings"]) {
    if (!s.is_object() || !s.contains("rfilename") || !s["rfilename"].is_string()) {
      throw InputError("listing.siblings", Message("error.repository.listing"));
    }
    const std::string name = s["rfilename"].get<std::string>();
    std::int64_t size = -1;
    if (s.contains("lfs") && s["lfs"].is_object() && s["lfs"].contains("size") && s["lfs"]["size"].is_number_integer()) {
      size = s["lfs"]["size"].get<std::int64_t>();
    } else if (s.contains("size") && s["size"].is_number_integer()) {
      size = s["size"].get<std::int64_t>();
    }
    names.push_back(name);
    sizes[name] = size;
  }
  auto has = [&](const std::string& n) { return sizes.contains(n); };
  auto size_of = [&](const std::string& n) { return sizes.contains(n) ? sizes[n].get<std::int64_t>() : std::int64_t{-1}; };

  // GGUF quantizations: one entry per file, split parts grouped under their first part.
  std::vector<Quant> quants;
  for (const auto& name : names) {
    if (!ends_with_any_case(name, ".gguf") || starts_with(ascii_lower(base_name(name)), "mmproj")) continue;
    std::string prefix = name;
    int part = 1;
    int count = 1;
    const bool split = split_part(name, prefix, part, count);
    const std::string key = split ? prefix + "#split" : name;
    auto found = std::find_if(quants.begin(), quants.end(), [&](const Quant& x) { return x.key == key; });
    if (found == quants.end()) {
      quants.push_back(Quant{});
      quants.back().key = key;
      found = quants.end() - 1;
    }
    Quant& q = *found;
    q.parts.push_back(name);
    q.expected_parts = count;
    if (part == 1) q.file = name;
  }
  // The order listed: smallest first (an unknown size last), then by name; indices into `quants`.
  std::vector<std::size_t> order;
  auto before = [](const Quant& a, const Quant& b) {
    const std::int64_t sa = a.size < 0 ? INT64_MAX : a.size;
    const std::int64_t sb = b.size < 0 ? INT64_MAX : b.size;
    return sa != sb ? sa < sb : a.file < b.file;
  };
  for (std::size_t k = 0; k < quants.size(); ++k) {
    Quant& q = quants[k];
    for (std::size_t i = 1; i < q.parts.size(); ++i) {  // part names in order (a handful)
      for (std::size_t j = i; j > 0 && q.parts[j] < q.parts[j - 1]; --j) std::swap(q.parts[j], q.parts[j - 1]);
    }
    if (q.file.empty()) q.file = q.parts.front();
    for (const auto& p : q.parts) {
      const std::int64_t s = size_of(p);
      q.size = (q.size < 0 || s < 0) ? -1 : q.size + s;
    }
    if (static_cast<int>(q.parts.size()) != q.expected_parts) q.size = -1;  // a part is missing
    q.format = gguf_format_in_name(q.file, &q.label);
    std::size_t at = 0;
    while (at < order.size() && before(quants[order[at]], q)) ++at;
    order.insert(order.begin() + static_cast<std::ptrdiff_t>(at), k);
  }

  // safetensors: the index when there is one, else model.safetensors, else the one root file.
  std::string index;
  std::vector<std::string> safetensors;
  if (has("model.safetensors.index.json")) index = "model.safetensors.index.json";
  for (const auto& name : names) {
    if (name.find('/') != std::string::npos) continue;
    if (index.empty() && ends_with_any_case(name, ".safetensors.index.json")) index = name;
    if (ends_with_any_case(name, ".safetensors")) safetensors.push_back(name);
  }

  json out = {{"id", id}, {"revision", text_of("sha")}};
  // `gated` is false, "auto" or "manual".
  const auto gated = listing.find("gated");
  out["gated"] = gated != listing.end() && !gated->is_null() && !(gated->is_boolean() && !gated->get<bool>());
  out["kind"] = "";
  out["config"] = has("config.json") ? json("config.json") : json(nullptr);
  out["index"] = nullptr;
  out["read"] = json::array();

  auto list_files = [&]() {
    std::string all;
    for (std::size_t k : order) all += (all.empty() ? "" : ", ") + quants[k].file;
    for (const auto& s : safetensors) all += (all.empty() ? "" : ", ") + s;
    return all.empty() ? std::string("none") : all;
  };
  auto use_quant = [&](const Quant& q) {
    out["kind"] = "gguf";
    out["read"] = q.parts;
    out["chosen"] = q.file;
  };
  // The first quantization, in the listed order, that `accepts`; or nullptr.
  auto first_quant = [&](auto accepts) -> const Quant* {
    for (std::size_t k : order) {
      if (accepts(quants[k])) return &quants[k];
    }
    return nullptr;
  };
  if (!chosen_file.empty()) {
    if (ends_with_any_case(chosen_file, ".gguf")) {
      const Quant* q = first_quant([&](const Quant& x) {
        return std::find(x.parts.begin(), x.parts.end(), chosen_file) != x.parts.end();
      });
      if (!q) {
        throw InputError("file", Message("error.repository.file_not_found").text("id", id).text("file", chosen_file).text("files", list_files()));
      }
      use_quant(*q);
    } else if (ends_with_any_case(chosen_file, ".safetensors")) {
      if (!has(chosen_file)) {
        throw InputError("file", Message("error.repository.file_not_found").text("id", id).text("file", chosen_file).text("files", list_files()));
      }
      out["kind"] = "safetensors";
      out["read"] = {chosen_file};
      out["chosen"] = chosen_file;
    } else {
      throw InputError("file", Message("error.repository.file_kind").text("got", chosen_file));
    }
  } else if (!index.empty()) {
    out["kind"] = "safetensors-sharded";
    out["index"] = index;
  } else if (has("model.safetensors") || safetensors.size() == 1) {
    out["kind"] = "safetensors";
    out["read"] = {has("model.safetensors") ? std::string("model.safetensors") : safetensors.front()};
  } else if (!order.empty()) {
    // No file chosen: Q4_K_M, the quantization most often run, else the smallest the core knows.
    const Quant* q = first_quant([](const Quant& x) { return x.format && x.format->id == "q4_k_m"; });
    if (!q) q = first_quant([](const Quant& x) { return x.format != nullptr; });
    use_quant(q ? *q : quants[order.front()]);
  } else if (has("config.json")) {
    out["kind"] = "config";
  } else {
    throw InputError("repository", Message("error.repository.no_model_files").text("id", id));
  }

  json list = json::array();
  for (std::size_t k : order) {
    const Quant& q = quants[k];
    json row = {{"file", q.file}, {"parts", q.parts}, {"size_bytes", q.size < 0 ? json(nullptr) : json(q.size)}};
    row["quant"] = q.label.empty() ? json(nullptr) : json(q.label);
    row["weights"] = q.format ? json(std::string(q.format->id)) : json(nullptr);
    list.push_back(std::move(row));
  }
  out["gguf"] = std::move(list);
  out["safetensors"] = safetensors;
  json file_sizes = json::object();
  for (const auto& name : names) {
    if (name == "config.json" || ends_with_any_case(name, ".gguf") || ends_with_any_case(name, ".safetensors") || ends_with_any_case(name, ".safetensors.index.json")) {
      file_sizes[name] = size_of(name) < 0 ? json(nullptr) : json(size_of(name));
    }
  }
  out["sizes"] = std::move(file_sizes);
  return out.dump(-1, ' ', true);  // ASCII, as every answer (json_writer.hpp)
}

}  // namespace llmsizer::edge
