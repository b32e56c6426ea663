// SPDX-License-Identifier: MIT
#pragma once
// Small model files for the tests of what a file's header says (model_file_typed_test.cpp,
// model_file_test.cpp, repository_test.cpp): one GGUF per rule of the GGUF metadata → config
// mapping (file_config.hpp) and safetensors headers with and without the attention shape. Headers
// only: each file's size is given, no tensor data.
#include <cstdint>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "llmsizer/model.hpp"
#include "model_file_bytes.hpp"

namespace model_file_fixtures {

/// One file: its name, its leading bytes (the whole header) and the whole file's size.
struct Fixture {
  std::string name;
  std::string bytes;
  std::int64_t file_size = 0;
};

/// A GGUF v3 file (model_file_bytes.hpp): string and uint32 metadata, 32-aligned tensors.
inline Fixture gguf(const std::string& name, const std::string& arch, const std::vector<std::pair<std::string, std::uint32_t>>& kv,
                    const std::vector<llmsizer::GgufTensor>& tensors) {
  model_file_bytes::GgufBuilder b;
  b.header(tensors.size(), kv.size() + 2).kv_str("general.architecture", arch).kv_str("general.name", name);
  for (const auto& [key, value] : kv) b.kv_u32(key, value);
  const std::uint64_t data = b.tensors(tensors);
  return {name, b.out, static_cast<std::int64_t>(b.out.size() + data)};
}

/// `n` layers of the named tensors `blk.<i>.<suffix>` of one type and shape each.
inline std::vector<llmsizer::GgufTensor> layers(int n, const std::vector<std::pair<std::string, std::vector<std::int64_t>>>& per_layer,
                                                const std::string& type = "F16") {
  std::vector<llmsizer::GgufTensor> out = {{"token_embd.weight", {64, 100}, "F16", 0}};
  for (int i = 0; i < n; ++i) {
    for (const auto& [suffix, shape] : per_layer) out.push_back({"blk." + std::to_string(i) + "." + suffix, shape, shape.size() == 1 ? "F32" : type, 0});
  }
  out.push_back({"output_norm.weight", {64}, "F32", 0});
  return out;
}

/// A safetensors file's header: 8-byte length, then the JSON of BF16 tensors tiling the data.
inline Fixture safetensors(const std::string& name, const std::vector<std::pair<std::string, std::vector<std::int64_t>>>& tensors) {
  nlohmann::json header = nlohmann::json::object();
  std::int64_t offset = 0;
  for (const auto& [tensor, shape] : tensors) {
    std::int64_t n = 1;
    for (auto d : shape) n *= d;
    header[tensor] = {{"dtype", "BF16"}, {"shape", shape}, {"data_offsets", {offset, offset + 2 * n}}};
    offset += 2 * n;
  }
  const std::string b = model_file_bytes::safetensors_header(header.dump());
  return {name, b, static_cast<std::int64_t>(b.size()) + offset};
}

/// A Qwen3-style safetensors model of 2 layers; without q_norm its heads cannot be seen.
inline Fixture qwen3_safetensors(bool with_q_norm) {
  std::vector<std::pair<std::string, std::vector<std::int64_t>>> t = {{"model.embed_tokens.weight", {100, 64}}};
  for (int layer = 0; layer < 2; ++layer) {
    const std::string p = "model.layers." + std::to_string(layer) + ".";
    t.push_back({p + "self_attn.q_proj.weight", {64, 64}});
    t.push_back({p + "self_attn.k_proj.weight", {32, 64}});
    if (with_q_norm) t.push_back({p + "self_attn.q_norm.weight", {16}});
    t.push_back({p + "mlp.gate_proj.weight", {128, 64}});
    t.push_back({p + "mlp.up_proj.weight", {128, 64}});
    t.push_back({p + "mlp.down_proj.weight", {64, 128}});
  }
  return safetensors(with_q_norm ? "qwen3-safetensors" : "qwen3-safetensors-no-heads", t);
}

/** The files: a Llama GGUF of Q4_0 tensors with a Q4_K_M file type, one per family rule (Mixtral's one expert width,
 *  Qwen2-MoE's shared expert, DeepSeek-V3's MLA ranks, gpt-oss's alternating windows, Gemma 3's
 *  class defaults), an unknown architecture, headers lacking a field the model needs, and
 *  safetensors with and without the heads, and GPTQ-packed safetensors. */
inline std::vector<Fixture> all() {
  const auto attn = std::vector<std::pair<std::string, std::vector<std::int64_t>>>{
      {"attn_norm.weight", {64}}, {"attn_q.weight", {64, 64}}, {"attn_k.weight", {64, 32}}, {"ffn_down.weight", {128, 64}}};
  std::vector<Fixture> out;
  out.push_back(gguf("llama-q4k", "llama",
                     {{"general.file_type", 15}, {"llama.embedding_length", 64}, {"llama.block_count", 4}, {"llama.attention.head_count", 4},
                      {"llama.attention.head_count_kv", 2}, {"llama.feed_forward_length", 128}, {"llama.context_length", 8192}},
                     layers(4, attn, "Q4_0")));
  out.push_back(gguf("mixtral", "llama",
                     {{"llama.embedding_length", 64}, {"llama.block_count", 2}, {"llama.attention.head_count", 4},
                      {"llama.attention.head_count_kv", 2}, {"llama.feed_forward_length", 128}, {"llama.expert_count", 8},
                      {"llama.expert_used_count", 2}},
                     layers(2, attn)));
  out.push_back(gguf("qwen2moe", "qwen2moe",
                     {{"qwen2moe.embedding_length", 64}, {"qwen2moe.block_count", 2}, {"qwen2moe.attention.head_count", 4},
                      {"qwen2moe.attention.head_count_kv", 4}, {"qwen2moe.feed_forward_length", 256}, {"qwen2moe.expert_count", 60},
                      {"qwen2moe.expert_used_count", 4}, {"qwen2moe.expert_feed_forward_length", 32},
                      {"qwen2moe.expert_shared_feed_forward_length", 128}, {"qwen2moe.vocab_size", 100}},
                     layers(2, attn)));
  out.push_back(gguf("deepseek-v3", "deepseek2",
                     {{"deepseek2.embedding_length", 64}, {"deepseek2.block_count", 3}, {"deepseek2.attention.head_count", 4},
                      {"deepseek2.feed_forward_length", 256}, {"deepseek2.expert_count", 16}, {"deepseek2.expert_used_count", 4},
                      {"deepseek2.expert_feed_forward_length", 32}, {"deepseek2.expert_shared_count", 1},
                      {"deepseek2.leading_dense_block_count", 1}, {"deepseek2.attention.kv_lora_rank", 32},
                      {"deepseek2.attention.q_lora_rank", 48}, {"deepseek2.rope.dimension_count", 8},
                      {"deepseek2.attention.key_length", 24}, {"deepseek2.attention.value_length", 16}, {"deepseek2.context_length", 4096}},
                     layers(3, attn)));
  out.push_back(gguf("gpt-oss", "gpt-oss",
                     {{"gpt-oss.embedding_length", 64}, {"gpt-oss.block_count", 4}, {"gpt-oss.attention.head_count", 8},
                      {"gpt-oss.attention.head_count_kv", 2}, {"gpt-oss.attention.key_length", 16}, {"gpt-oss.feed_forward_length", 96},
                      {"gpt-oss.expert_count", 8}, {"gpt-oss.expert_used_count", 2}, {"gpt-oss.expert_feed_forward_length", 96},
                      {"gpt-oss.attention.sliding_window", 128}, {"gpt-oss.context_length", 131072}},
                     layers(4, attn, "Q8_0")));
  out.push_back(gguf("gemma3", "gemma3",
                     {{"gemma3.embedding_length", 64}, {"gemma3.block_count", 6}, {"gemma3.attention.head_count", 4},
                      {"gemma3.feed_forward_length", 256}},
                     layers(6, attn, "BF16")));
  out.push_back(gguf("unknown-arch", "mamba",
                     {{"mamba.embedding_length", 64}, {"mamba.block_count", 2}, {"mamba.attention.head_count", 4},
                      {"mamba.feed_forward_length", 128}},
                     layers(2, attn)));
  out.push_back(gguf("no-heads", "llama", {{"llama.embedding_length", 64}, {"llama.block_count", 2}, {"llama.feed_forward_length", 128}},
                     layers(2, attn)));
  out.push_back(gguf("heads-not-dividing", "llama",
                     {{"llama.embedding_length", 64}, {"llama.block_count", 2}, {"llama.attention.head_count", 6},
                      {"llama.feed_forward_length", 128}},
                     layers(2, attn)));
  out.push_back(gguf("too-many-layers", "qwen2",
                     {{"qwen2.embedding_length", 64}, {"qwen2.block_count", 20000}, {"qwen2.attention.head_count", 4},
                      {"qwen2.feed_forward_length", 128}},
                     layers(1, attn)));
  out.push_back(qwen3_safetensors(true));
  out.push_back(qwen3_safetensors(false));
  // GPTQ-packed: qweight holds 8 four-bit weights per stored element, so no exact count.
  out.push_back(safetensors("gptq-packed", {{"model.embed_tokens.weight", {100, 64}}, {"model.layers.0.self_attn.q_proj.qweight", {8, 64}},
                                            {"model.layers.0.self_attn.q_proj.qzeros", {1, 8}}, {"model.layers.0.self_attn.q_proj.scales", {1, 64}}}));
  return out;
}

/// Every field of a ModelSpec that a file or a config sets, as text (a difference names its field).
inline std::string spec_fields(const llmsizer::ModelSpec& m) {
  std::ostringstream o;
  o << "id=" << m.id << " name=" << m.name << " family=" << static_cast<int>(m.family) << " type=" << m.model_type_name
    << "\nhidden=" << m.hidden_size << " layers=" << m.num_layers << " heads=" << m.num_attention_heads << " kv=" << m.num_kv_heads
    << " head_dim=" << m.head_dim << " vocab=" << m.vocab_size << " mlp=" << m.intermediate_size << " context=" << m.max_position_embeddings
    << "\ntie=" << m.tie_word_embeddings << " qkv_bias=" << m.qkv_bias << " o_bias=" << m.o_bias << " mlp_bias=" << m.mlp_bias
    << " gated=" << m.gated_mlp << " qk_norm=" << m.qk_norm << "/" << m.qk_norm_full_width << " gate=" << m.attention_output_gate
    << " sinks=" << m.attention_sinks << " scaled=" << m.embedding_scaled << " norm_bias=" << m.norm_has_bias << " norms=" << m.norms_per_layer
    << "\nrope=" << m.rope_scaling_factor << "/" << m.rope_scaling_original_tokens << " window=" << m.sliding_window
    << " chunk=" << m.attention_chunk_size << " mixers=";
  for (auto k : m.layer_mixers) o << static_cast<int>(k);
  o << " attention_shapes=" << m.layer_attention.size() << " mlp_kinds=" << m.layer_mlp.size() << " layer_norms=" << m.layer_norms.size()
    << "\nmoe=" << m.moe.num_experts << "/" << m.moe.experts_per_token << "/" << m.moe.expert_intermediate_size << " shared="
    << m.moe.num_shared_experts << "/" << m.moe.shared_expert_intermediate_size << "/" << m.moe.shared_expert_gate
    << " dense=" << m.moe.first_dense_layers << "+" << m.moe.dense_layers.size() << " period=" << m.moe.moe_layer_period << "/"
    << m.moe.moe_layer_offset << " bias=" << m.moe.router_bias << m.moe.router_norm << m.moe.expert_bias
    << "\nmla=" << m.mla.q_lora_rank << "/" << m.mla.kv_lora_rank << "/" << m.mla.qk_nope_head_dim << "/" << m.mla.qk_rope_head_dim << "/"
    << m.mla.v_head_dim << " indexer=" << m.indexer.num_heads << " linear=" << m.recurrent.linear_num_key_heads
    << " mamba=" << m.recurrent.mamba_d_inner << " mtp=" << m.mtp_layers << "/" << m.mtp_embedding_copies
    << " vision=" << m.vision.params << m.vision.kind << " stored=" << m.stored_weights << " assumed=" << m.shape_assumed
    << "\nparams=" << m.params_override << " file_bytes=" << m.file_weight_bytes << " format=" << m.file_weights_format << "\ntensors:";
  if (m.file_tensors) {
    for (const auto& t : *m.file_tensors) {
      o << " " << t.name << ":" << t.type << ":" << t.bytes << "[";
      for (auto d : t.shape) o << d << ",";
      o << "]";
    }
  }
  return o.str();
}

}  // namespace model_file_fixtures
