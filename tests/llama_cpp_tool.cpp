// SPDX-License-Identifier: MIT
// Helper of the real-llama.cpp test (tests/js/llama_cpp_real.mjs): turns a model config into the
// plan of a GGUF file llama.cpp loads (metadata as convert_hf_to_gguf.py writes it, the tensors of
// llama_cpp_tensors() with their ggml types), so that the Node test can write the file and load it
// with node-llama-cpp.
//
//   llmsizer_llama_cpp_tool gguf-plan DATA.json MODEL_ID WEIGHTS -> {"architecture", "metadata", "tensors"}
//   llmsizer_llama_cpp_tool estimate-rows DATA.json              -> the core's estimate of every row
//   llmsizer_llama_cpp_tool estimate-draft-rows DATA.json        -> the same for target + draft rows
//   llmsizer_llama_cpp_tool file-weights FILE                    -> the weight buffers of a GGUF file
//                                                                   read through inspect -> request_model
//
// DATA.json is data/validation/llama_cpp.json (llama_cpp_draft.json for estimate-draft-rows): its
// "models" hold each model's config.json.
// Test code only: nothing here is part of the core.
#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "llmsizer/api.hpp"
#include "llmsizer/edge/config_import.hpp"
#include "llmsizer/error.hpp"
#include "llmsizer/ggml_types.hpp"
#include "llmsizer/llama_cpp.hpp"
#include "llmsizer/memory.hpp"
#include "llmsizer/model.hpp"
#include "llmsizer/precision.hpp"
#include "llmsizer/speculative.hpp"
#include "llama_cpp_rows.hpp"

namespace {

using nlohmann::json;
using llmsizer::ModelSpec;

// GGUF value type ids (gguf.md gguf_metadata_value_type).
constexpr int kU32 = 4, kF32 = 6, kStr = 8;

json kv(const std::string& key, int type, json value) { return {{"key", key}, {"type", type}, {"value", std::move(value)}}; }

double number_or(const json& cfg, const char* key, double fallback) {
  const auto it = cfg.find(key);
  return it != cfg.end() && it->is_number() ? it->get<double>() : fallback;
}

/// The metadata convert_hf_to_gguf.py writes for the family (conversion/*.py set_gguf_parameters),
/// without the tokenizer (the Node side adds a synthetic one of vocab_size tokens).
json metadata_for(const ModelSpec& m, const json& cfg, const std::string& arch) {
  json md = json::array();
  const std::string a = arch + ".";
  md.push_back(kv("general.architecture", kStr, arch));
  md.push_back(kv("general.name", kStr, m.id.empty() ? "synthetic" : m.id));
  const std::int64_t n_ctx_train = m.max_position_embeddings > 0 ? m.max_position_embeddings : 32768;
  md.push_back(kv(a + "context_length", kU32, n_ctx_train));
  md.push_back(kv(a + "embedding_length", kU32, m.hidden_size));
  md.push_back(kv(a + "block_count", kU32, m.num_layers));
  md.push_back(kv(a + "feed_forward_length", kU32, m.intermediate_size));
  md.push_back(kv(a + "attention.head_count", kU32, m.num_attention_heads));
  md.push_back(kv(a + "attention.layer_norm_rms_epsilon", kF32, number_or(cfg, "rms_norm_eps", 1e-6)));
  md.push_back(kv(a + "rope.freq_base", kF32, number_or(cfg, "rope_theta", 10000.0)));
  md.push_back(kv(a + "vocab_size", kU32, m.vocab_size));
  if (m.mla.kv_lora_rank > 0) {
    // conversion/deepseek.py: MLA stored as MQA with larger heads (num_key_value_heads = 1).
    md.push_back(kv(a + "attention.head_count_kv", kU32, 1));
    if (m.mla.q_lora_rank > 0) md.push_back(kv(a + "attention.q_lora_rank", kU32, m.mla.q_lora_rank));
    md.push_back(kv(a + "attention.kv_lora_rank", kU32, m.mla.kv_lora_rank));
    md.push_back(kv(a + "attention.key_length", kU32, m.mla.kv_lora_rank + m.mla.qk_rope_head_dim));
    md.push_back(kv(a + "attention.value_length", kU32, m.mla.kv_lora_rank));
    md.push_back(kv(a + "attention.key_length_mla", kU32, m.mla.qk_nope_head_dim + m.mla.qk_rope_head_dim));
    md.push_back(kv(a + "attention.value_length_mla", kU32, m.mla.v_head_dim));
    md.push_back(kv(a + "rope.dimension_count", kU32, m.mla.qk_rope_head_dim));
    md.push_back(kv(a + "leading_dense_block_count", kU32, m.moe.first_dense_layers));
    md.push_back(kv(a + "expert_shared_count", kU32, m.moe.num_shared_experts));
    md.push_back(kv(a + "expert_gating_func", kU32, m.moe.router_bias ? 2 : 1));  // llama_expert_gating_func_type
  } else {
    md.push_back(kv(a + "attention.head_count_kv", kU32, m.num_kv_heads));
    md.push_back(kv(a + "attention.key_length", kU32, m.head_dim));
    md.push_back(kv(a + "attention.value_length", kU32, m.head_dim));
    md.push_back(kv(a + "rope.dimension_count", kU32, m.head_dim));
  }
  if (m.moe.num_experts > 0) {
    md.push_back(kv(a + "expert_count", kU32, m.moe.num_experts));
    md.push_back(kv(a + "expert_used_count", kU32, m.moe.experts_per_token));
    md.push_back(kv(a + "expert_feed_forward_length", kU32, m.moe.expert_intermediate_size));
  }
  if (m.sliding_window > 0 && arch != "llama" && arch != "qwen2" && arch != "qwen3") {
    md.push_back(kv(a + "attention.sliding_window", kU32, m.sliding_window));
  }
  if (arch == "gemma2") {
    md.push_back(kv(a + "attn_logit_softcapping", kF32, number_or(cfg, "attn_logit_softcapping", 50.0)));
    md.push_back(kv(a + "final_logit_softcapping", kF32, number_or(cfg, "final_logit_softcapping", 30.0)));
  }
  return md;
}

int run_gguf_plan(const std::string& data_path, const std::string& model_id, const std::string& weights) {
  std::ifstream in(data_path);
  if (!in) throw std::runtime_error("cannot read " + data_path);
  const json doc = json::parse(in);
  json cfg;
  for (const auto& entry : doc.at("models")) {
    if (entry.at("id") == model_id) cfg = entry.at("config");
  }
  if (cfg.is_null()) throw std::runtime_error("no model '" + model_id + "' in " + data_path);
  std::vector<llmsizer::Message> warnings;
  ModelSpec m = llmsizer::model_from_hf_config(cfg, "config", warnings);
  m.id = model_id;
  const llmsizer::WeightFormat* format = llmsizer::find_weight_format(weights);
  if (format == nullptr) throw std::runtime_error("unknown weight format '" + weights + "'");
  const std::string arch = llmsizer::llama_cpp_architecture(m);
  if (arch.empty()) throw std::runtime_error("no llama.cpp architecture is known for '" + m.model_type_name + "'");
  json out;
  out["architecture"] = arch;
  out["vocab_size"] = m.vocab_size;
  out["metadata"] = metadata_for(m, cfg, arch);
  json tensors = json::array();
  for (const auto& t : llmsizer::llama_cpp_tensors(m, *format)) {
    const llmsizer::GgmlTypeInfo* type = llmsizer::ggml_type_by_name(t.type);
    if (type == nullptr) throw std::runtime_error("tensor " + t.name + " has type " + t.type + ", not a ggml type");
    tensors.push_back({{"name", t.name}, {"shape", t.shape}, {"type", type->id}, {"type_name", t.type}, {"bytes", t.bytes}});
  }
  out["tensors"] = tensors;
  std::cout << out.dump() << "\n";
  return 0;
}

/// estimate-rows DATA.json: the core's estimate for every row of data/validation/llama_cpp.json,
/// as a JSON array in the rows' order.
int run_estimate_rows(const std::string& data_path) {
  std::ifstream in(data_path);
  if (!in) throw std::runtime_error("cannot read " + data_path);
  const json doc = json::parse(in);
  const auto models = llama_cpp_rows::models_of(doc);
  json out = json::array();
  for (const auto& row : doc.at("rows")) out.push_back(llama_cpp_rows::estimate_row(models, row));
  std::cout << out.dump() << "\n";
  return 0;
}

/// estimate-draft-rows DATA.json: for every row of data/validation/llama_cpp_draft.json the core's
/// answer for the request the row measured (engine llama.cpp on the CPU, the target's -c, -np, -ub,
/// -fa and cache type) with a `draft`: the target's buffers from its llama.cpp run, the draft's from
/// draft_memory, made with the n_outputs_max node-llama-cpp's addon leaves (n_batch = n_ubatch).
int run_estimate_draft_rows(const std::string& data_path) {
  std::ifstream in(data_path);
  if (!in) throw std::runtime_error("cannot read " + data_path);
  const json doc = json::parse(in);
  const auto models = llama_cpp_rows::models_of(doc);
  json out = json::array();
  for (const auto& row : doc.at("rows")) {
    const json& c = row.at("setting");
    const llmsizer::WeightFormat* target_format = llmsizer::find_weight_format(row.at("target_weights").get<std::string>());
    const llmsizer::WeightFormat* draft_format = llmsizer::find_weight_format(row.at("draft_weights").get<std::string>());
    const llmsizer::KvCacheFormat* cache = llmsizer::find_kv_cache_format(c.at("type_k") == "q8_0" ? "q8_0" : "fp16");
    if (target_format == nullptr || draft_format == nullptr || cache == nullptr) throw std::runtime_error("row " + row.at("id").get<std::string>() + ": unknown format");
    llmsizer::InferenceSettings s;
    s.engine = llmsizer::Engine::llama_cpp;
    s.weights = target_format;
    s.kv_cache = cache;
    s.gpus = 0;
    s.batch = c.at("n_seq").get<int>();
    s.input_tokens = c.at("n_ctx").get<std::int64_t>() / s.batch;
    s.output_tokens = 0;
    s.flash_attention = c.at("flash_attn").get<bool>();
    s.llama_cpp.parallel = c.at("n_seq").get<int>();
    s.llama_cpp.ubatch = c.at("n_ubatch").get<std::int64_t>();
    s.llama_cpp.n_batch = s.llama_cpp.ubatch;
    s.llama_cpp.kv_unified = false;
    s.llama_cpp.cpu_family = llmsizer::LlamaCppCpu::x86_avx2;
    try {
      const llmsizer::MemoryEstimate e = llmsizer::estimate_inference_memory(models.at(row.at("target").get<std::string>()), s);
      if (!e.llama_cpp) throw std::runtime_error("no llama.cpp run for " + row.at("id").get<std::string>());
      const llmsizer::LlamaCppMemory& t = e.llama_cpp->memory;
      llmsizer::DraftSettings d;
      d.model = models.at(row.at("draft").get<std::string>());
      d.weights = draft_format;
      d.n_outputs_max = s.llama_cpp.n_batch;
      const llmsizer::DraftMemory dm = llmsizer::draft_memory(d, s);
      json cells = json::array();
      cells.push_back(t.cells_full);
      if (t.cells_sliding > 0) cells.push_back(t.cells_sliding);
      out.push_back({{"target", {{"weights", {{"CPU_Mapped", t.weights_mapped}, {"CPU", t.weights_cpu}, {"CPU_REPACK", t.weights_repack}}},
                                 {"kv", t.kv_host + t.kv_device},
                                 {"compute", t.compute_host + t.compute_device},
                                 {"output", t.output},
                                 {"n_ctx", t.n_ctx},
                                 {"kv_cells", cells}}},
                     {"draft", {{"weights", dm.weights_bytes}, {"kv", dm.kv_cache_bytes}, {"compute", dm.compute_bytes}, {"contexts", dm.contexts}}},
                     {"total", e.host_bytes + dm.host_bytes}});
    } catch (const llmsizer::InputError& err) {
      out.push_back({{"error", err.what()}});
    }
  }
  std::cout << out.dump() << "\n";
  return 0;
}

/// file-weights FILE: the weight buffers the core estimates for a GGUF file read as a person's is,
/// through its header (inspect_model_file) and its `request_model` (engine llama.cpp, CPU only,
/// AVX2), as the measured rows name them.
int run_file_weights(const std::string& file_path) {
  std::ifstream in(file_path, std::ios::binary | std::ios::ate);
  if (!in) throw std::runtime_error("cannot read " + file_path);
  const auto size = static_cast<std::int64_t>(in.tellg());
  std::int64_t want = 1 << 20;
  json inspected;
  for (int round = 0; round < 30; ++round) {
    const std::int64_t n = std::min(want, size);
    std::string bytes(static_cast<std::size_t>(n), '\0');
    in.seekg(0);
    in.read(bytes.data(), n);
    inspected = json::parse(llmsizer::inspect_model_file(bytes, static_cast<double>(size)));
    const std::int64_t needed = inspected.contains("error") ? inspected["error"].value("needed_bytes", std::int64_t{0}) : 0;
    if (needed == 0) break;
    want = std::max(needed, 2 * n);  // file_header.hpp: read at least twice the prefix given
  }
  if (inspected.contains("error")) throw std::runtime_error(file_path + ": " + inspected["error"].dump());
  const json request = {{"model", inspected["request_model"]}, {"engine", "llama.cpp"}, {"gpus", 0}, {"cpu_family", "x86_avx2"}};
  const json answer = json::parse(llmsizer::estimate(request.dump()));
  if (answer.contains("error")) throw std::runtime_error(file_path + ": " + answer["error"].dump());
  const json& b = answer.at("llama_cpp").at("buffers");
  std::cout << json{{"CPU_Mapped", b.at("weights_mapped")}, {"CPU", b.at("weights_cpu")}, {"CPU_REPACK", b.at("weights_repack")}}.dump() << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (args.size() == 4 && args[0] == "gguf-plan") return run_gguf_plan(args[1], args[2], args[3]);
    if (args.size() == 2 && args[0] == "estimate-rows") return run_estimate_rows(args[1]);
    if (args.size() == 2 && args[0] == "estimate-draft-rows") return run_estimate_draft_rows(args[1]);
    if (args.size() == 2 && args[0] == "file-weights") return run_file_weights(args[1]);
  } catch (const std::exception& e) {
    std::cerr << "llmsizer_llama_cpp_tool: " << e.what() << "\n";
    return 2;
  }
  std::cerr << "usage: llmsizer_llama_cpp_tool gguf-plan DATA.json MODEL_ID WEIGHTS | estimate-rows DATA.json | estimate-draft-rows DATA.json | file-weights FILE\n";
  return 2;
}
