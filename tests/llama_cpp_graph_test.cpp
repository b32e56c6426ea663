// SPDX-License-Identifier: MIT
// The shortened llama.cpp graph (core/src/llama_cpp_graph.cpp: compute_buffer_bytes and input_bytes
// build the first and the last layers only) against the graph of every layer, its reference: the
// same bytes for dense, sliding-window, mixture-of-experts and MLA shapes, prompt and decode
// micro-batches, one and several sequences, with and without flash attention.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "../llama_cpp_graph.hpp"  // core/src (the tests see core/src/edge)

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace llama_cpp_graph_test {

using llmsizer::llama_cpp_graph::GraphParams;

/// The shapes of published configs (config.json of each model on Hugging Face).
std::vector<GraphParams> shapes() {
  std::vector<GraphParams> out;
  {  // Qwen2.5-7B-Instruct: dense, GQA 28:4, qkv bias
    GraphParams g;
    g.graph = llmsizer::LlamaCppGraph::llama;
    g.n_layer = 28;
    g.n_embd = 3584;
    g.n_head = 28;
    g.n_head_kv = 4;
    g.n_embd_head_k = g.n_embd_head_v = 128;
    g.n_ff = 18944;
    g.n_vocab = 152064;
    g.qkv_bias = true;
    g.is_swa.assign(28, false);
    out.push_back(g);
  }
  {  // Gemma-3-4B: five sliding-window layers to one global, QK norm
    GraphParams g;
    g.graph = llmsizer::LlamaCppGraph::gemma;
    g.n_layer = 34;
    g.n_embd = 2560;
    g.n_head = 8;
    g.n_head_kv = 4;
    g.n_embd_head_k = g.n_embd_head_v = 256;
    g.n_ff = 10240;
    g.n_vocab = 262208;
    g.qk_norm = true;
    for (int il = 0; il < 34; ++il) g.is_swa.push_back((il + 1) % 6 != 0);
    out.push_back(g);
  }
  {  // gpt-oss-20b: sliding and full attention alternating, 32 experts, 4 used
    GraphParams g;
    g.graph = llmsizer::LlamaCppGraph::openai_moe;
    g.n_layer = 24;
    g.n_embd = 2880;
    g.n_head = 64;
    g.n_head_kv = 8;
    g.n_embd_head_k = g.n_embd_head_v = 64;
    g.n_ff = 2880;
    g.n_vocab = 201088;
    g.qkv_bias = true;
    g.o_bias = true;
    g.n_expert = 32;
    g.n_expert_used = 4;
    g.n_ff_exp = 2880;
    for (int il = 0; il < 24; ++il) g.is_swa.push_back(il % 2 == 0);
    out.push_back(g);
  }
  {  // Qwen3-30B-A3B: 128 experts, 8 used, QK norm
    GraphParams g;
    g.graph = llmsizer::LlamaCppGraph::llama;
    g.n_layer = 48;
    g.n_embd = 2048;
    g.n_head = 32;
    g.n_head_kv = 4;
    g.n_embd_head_k = g.n_embd_head_v = 128;
    g.n_ff = 6144;
    g.n_vocab = 151936;
    g.qk_norm = true;
    g.n_expert = 128;
    g.n_expert_used = 8;
    g.n_ff_exp = 768;
    g.is_swa.assign(48, false);
    out.push_back(g);
  }
  {  // DeepSeek-V2-Lite: MLA (kv_lora_rank 512), one dense layer first, 64 experts, 6 used, 2 shared
    GraphParams g;
    g.graph = llmsizer::LlamaCppGraph::deepseek2;
    g.n_layer = 27;
    g.n_embd = 2048;
    g.n_head = 16;
    g.n_head_kv = 16;
    g.n_embd_head_k = 512 + 64;
    g.n_embd_head_v = 512;
    g.n_ff = 10944;
    g.n_vocab = 102400;
    g.n_expert = 64;
    g.n_expert_used = 6;
    g.n_ff_exp = 1408;
    g.n_ff_shexp = 2 * 1408;
    g.n_layer_dense_lead = 1;
    g.kv_lora_rank = 512;
    g.n_embd_head_qk_rope = 64;
    g.n_embd_head_k_mla = 128 + 64;
    g.n_embd_head_v_mla = 128;
    g.is_swa.assign(27, false);
    out.push_back(g);
  }
  return out;
}

TEST_CASE("The shortened llama.cpp graph needs the bytes of the whole one, built once for its buffer and inputs", "[llama_cpp]") {
  for (const GraphParams& shape : shapes()) {
    for (const std::int64_t seqs : {1, 4}) {
      for (const bool flash : {false, true}) {
        for (const std::int64_t tokens : {seqs, std::int64_t{512}}) {  // decode, then a prompt micro-batch
          for (const std::int64_t cells : {4096, 33024}) {
            GraphParams g = shape;
            g.n_seqs = seqs;
            g.n_stream = seqs;
            g.flash_attn = flash;
            g.kv_size = cells;
            g.kv_size_swa = std::min<std::int64_t>(cells, 1536);
            g.n_tokens = tokens;
            g.n_outputs = seqs;
            INFO("graph " << static_cast<int>(g.graph) << " sequences " << seqs << " flash " << flash << " tokens " << tokens << " cells " << cells);
            CHECK(llmsizer::llama_cpp_graph::compute_buffer_bytes(g) == llmsizer::llama_cpp_graph::compute_buffer_bytes_all_layers(g));
            CHECK(llmsizer::llama_cpp_graph::input_bytes(g) == llmsizer::llama_cpp_graph::input_bytes_all_layers(g));
            // Both from one build of the shortened graph, as llama_cpp_memory asks them.
            const llmsizer::llama_cpp_graph::GraphBytes both = llmsizer::llama_cpp_graph::graph_bytes(g);
            CHECK(both.compute == llmsizer::llama_cpp_graph::compute_buffer_bytes_all_layers(g));
            CHECK(both.inputs == llmsizer::llama_cpp_graph::input_bytes_all_layers(g));
          }
        }
      }
    }
  }
}

TEST_CASE("A graph whose tensors together fit under a floor is not laid out: their sum bounds its buffer", "[llama_cpp]") {
  // ggml-alloc.c ggml_dyn_tallocr_alloc: each allocation moves the buffer's end by at most its own
  // size, so the buffer is at most the sum; above the floor the answer is the buffer itself.
  for (const GraphParams& shape : shapes()) {
    for (const bool flash : {false, true}) {
      for (const std::int64_t tokens : {std::int64_t{1}, std::int64_t{512}}) {
        GraphParams g = shape;
        g.flash_attn = flash;
        g.kv_size = 8192;
        g.kv_size_swa = 1536;
        g.n_tokens = tokens;
        INFO("graph " << static_cast<int>(g.graph) << " flash " << flash << " tokens " << tokens);
        const std::int64_t buffer = llmsizer::llama_cpp_graph::compute_buffer_bytes(g);
        CHECK(llmsizer::llama_cpp_graph::compute_buffer_bytes_above(g, 0) == buffer);
        CHECK(llmsizer::llama_cpp_graph::compute_buffer_bytes_above(g, buffer - 1) == buffer);
        constexpr std::int64_t kFloor = std::int64_t{1} << 50;
        const std::int64_t bound = llmsizer::llama_cpp_graph::compute_buffer_bytes_above(g, kFloor);
        CHECK(bound >= buffer);
        CHECK(bound <= kFloor);
      }
    }
  }
}

TEST_CASE("The tensors a graph lays out for itself sum to no less over a larger cache", "[llama_cpp]") {
  // What lets llama_cpp.cpp bound a token-generation graph by one over a larger cache: the cells are
  // a dimension of the mask, of the attention scores and of V's transposed copy, and of nothing
  // the graph chooses by. Each shape, prompt and decode micro-batches, one and four sequences, with
  // and without flash attention, over caches of 256 to 15,616 cells in steps of 1,024 (the sliding cache 256 to 4,352).
  constexpr std::int64_t kFloor = std::int64_t{1} << 50;  // above any sum here: never laid out
  for (const GraphParams& shape : shapes()) {
    for (const bool flash : {false, true}) {
      for (const std::int64_t seqs : {std::int64_t{1}, std::int64_t{4}}) {
        for (const std::int64_t tokens : {seqs, std::int64_t{512}}) {
          GraphParams g = shape;
          g.flash_attn = flash;
          g.n_seqs = g.n_stream = seqs;
          g.n_tokens = tokens;
          g.n_outputs = seqs;
          std::int64_t last = 0;
          for (std::int64_t cells = 256; cells <= 16384; cells += 1024) {
            g.kv_size = cells;
            g.kv_size_swa = std::min<std::int64_t>(cells, 4352);
            std::int64_t sum = -1;
            const std::int64_t bound = llmsizer::llama_cpp_graph::compute_buffer_bytes_above(g, kFloor, &sum);
            INFO("graph " << static_cast<int>(g.graph) << " flash " << flash << " sequences " << seqs << " tokens " << tokens << " cells " << cells);
            CHECK(sum == bound);
            CHECK(sum >= last);
            CHECK(sum >= llmsizer::llama_cpp_graph::compute_buffer_bytes(g));
            last = sum;
          }
        }
      }
    }
  }
}

}  // namespace llama_cpp_graph_test
