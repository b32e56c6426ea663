// SPDX-License-Identifier: MIT
// The searches behind every "largest that fits" (core/include/llmsizer/largest_fitting.hpp): the
// interpolating search gives bisection's answer, on synthetic needs with breakpoints and on the
// estimator's own memory for real requests, in fewer calls.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "llmsizer/estimate_cache.hpp"
#include "llmsizer/hardware.hpp"
#include "llmsizer/largest_fitting.hpp"
#include "llmsizer/quantization.hpp"
#include "llmsizer/memory.hpp"
#include "llmsizer/training.hpp"
#include "test_support.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace largest_fitting_test {

using llmsizer::largest_holding;
using llmsizer::largest_within;
using llmsizer::largest_within_both;

constexpr std::int64_t kGiB = 1LL << 30;

/// What bisection answers for need(v) <= budget over [lo, hi] (lo - 1 where lo does not fit), and its calls.
template <typename Need>
std::int64_t bisection(std::int64_t lo, std::int64_t hi, std::int64_t budget, Need&& need, int& calls) {
  calls = 1;
  if (need(lo) > budget) return lo - 1;
  return largest_holding(lo, hi, [&](std::int64_t v) {
    ++calls;
    return need(v) <= budget;
  });
}

/// Calls bisection needs at most: need(lo), need(hi), then ceil(log2(hi - lo)).
int bisection_calls(std::int64_t lo, std::int64_t hi) {
  int bits = 0;
  while ((std::int64_t{1} << bits) < hi - lo) ++bits;
  return 2 + bits;
}

TEST_CASE("The largest value a monotone predicate holds for is found exactly", "[largest_fitting]") {
  int calls = 0;
  const auto up_to_700 = [&](std::int64_t v) {
    ++calls;
    return v <= 700;
  };
  CHECK(largest_holding(1, 1000, up_to_700) == 700);
  CHECK(calls <= 11);  // hi first, then ceil(log2(999)) = 10 bisections
  CHECK(largest_holding(1, 500, up_to_700) == 500);
}

TEST_CASE("An affine need is searched in four calls: the two ends, the boundary and its neighbour", "[largest_fitting]") {
  // 5 GB of weights plus 131,072 B per token (Qwen2.5-7B's bf16 KV cache: 2 × 28 layers × 4 KV heads
  // × 128 × 2 B = 57,344 B; any slope does): 24 GB hold (24e9 − 5e9) / 131,072 = 144,958.2 tokens.
  int calls = 0;
  const auto need = [&](std::int64_t tokens) {
    ++calls;
    return 5'000'000'000 + 131'072 * tokens;
  };
  CHECK(largest_within(1, 10'000'000, 24'000'000'000, need) == 144'958);
  CHECK(calls == 4);
  calls = 0;
  CHECK(largest_within(1, 100'000, 24'000'000'000, need) == 100'000);  // the upper end fits: one call, need(100,000)
  CHECK(calls == 1);
  calls = 0;
  CHECK(largest_within(1, 100'000, 4'000'000'000, need) == 0);  // not even one token: two calls, the upper end and the lower
  CHECK(calls == 2);
}

TEST_CASE("Needs with breakpoints, plateaus and steps give bisection's answer within its calls plus the slack", "[largest_fitting]") {
  // Synthetic needs shaped as the estimator's are: a padding to 256 (llama.cpp's n_ctx), a jump at a
  // breakpoint (a compute buffer that grows once the micro-batch is full), a slope that changes (a
  // sliding window that stops growing), a plateau at the top (a sequence count capped at 256).
  const std::vector<std::int64_t (*)(std::int64_t)> shapes = {
      [](std::int64_t v) { return 1'000'000 + 4'096 * ((v + 1'023) / 256 * 256); },
      [](std::int64_t v) { return 2'000'000 + 1'000 * v + (v > 512 ? 300'000 : 0); },
      [](std::int64_t v) { return 500'000 + (v < 4'096 ? 2'000 * v : 2'000 * 4'096 + 50 * (v - 4'096)); },
      [](std::int64_t v) { return 100'000 + 30'000 * (v < 256 ? v : 256); },
      [](std::int64_t v) { return 7 * v * v + 3 * v; },
  };
  const std::int64_t hi = 20'000;
  int worst_extra = -100;
  for (const auto& shape : shapes) {
    for (std::int64_t budget = 0; budget <= shape(hi) + 10; budget += shape(hi) / 97 + 1) {
      int calls = 0;
      const auto counted = [&](std::int64_t v) {
        ++calls;
        return shape(v);
      };
      int bisection_count = 0;
      const std::int64_t expected = bisection(1, hi, budget, shape, bisection_count);
      // The brute-force definition: the largest value that fits (every shape here is nondecreasing).
      std::int64_t scanned = 0;
      for (std::int64_t v = 1; v <= hi; ++v) {
        if (shape(v) <= budget) scanned = v;
      }
      REQUIRE(expected == scanned);
      CHECK(largest_within(1, hi, budget, counted) == expected);
      CHECK(calls <= bisection_calls(1, hi) + llmsizer::kSlack);
      worst_extra = std::max(worst_extra, calls - bisection_calls(1, hi));
    }
  }
  CHECK(worst_extra <= llmsizer::kSlack);
}

TEST_CASE("Two limits: the costly predicate runs once where the bytes decide, in steps where it does not", "[largest_fitting]") {
  int costly_calls = 0;
  const auto need = [](std::int64_t v) { return v; };  // fits up to the budget
  const auto costly_above = [&](std::int64_t limit) {
    return [&costly_calls, limit](std::int64_t v) {
      ++costly_calls;
      return v <= limit;
    };
  };
  // The bytes decide (4000 holds for the costly one too): costly(lo) and costly(4000).
  CHECK(largest_within_both(1, 10000, 4000, need, costly_above(5000)) == 4000);
  CHECK(costly_calls == 2);
  // The costly one decides at 3000: with step 1, exactly 3000.
  costly_calls = 0;
  CHECK(largest_within_both(1, 10000, 4000, need, costly_above(3000)) == 3000);
  // With step 256 the answer is the largest 1 + k × 256 that holds: 1 + 11 × 256 = 2817, in fewer calls.
  const int exact_calls = costly_calls;
  costly_calls = 0;
  CHECK(largest_within_both(1, 10000, 4000, need, costly_above(3000), 256) == 2817);
  CHECK(costly_calls < exact_calls);
  // Neither holds at lo: lo - 1.
  CHECK(largest_within_both(1, 10000, 0, need, costly_above(3000)) == 0);
  CHECK(largest_within_both(1, 10000, 4000, need, costly_above(0)) == 0);
}

TEST_CASE("The context and batch searches over real estimates give bisection's answer in fewer calls", "[largest_fitting]") {
  using llmsizer::Engine;
  struct Case {
    const char* model;
    Engine engine;
    const char* weights;
  };
  const Case cases[] = {
      {"qwen2.5-7b-instruct", Engine::generic, "bf16"},       {"qwen2.5-7b-instruct", Engine::transformers, "bf16"},
      {"llama-3.1-8b-instruct", Engine::vllm, "fp8"},          {"qwen2.5-7b-instruct", Engine::sglang, "bf16"},
      {"qwen2.5-7b-instruct", Engine::llama_cpp, "q4_k_m"},    {"llama-3.1-8b-instruct", Engine::ollama, "q4_k_m"},
      {"gemma-3-4b-it", Engine::llama_cpp, "q4_k_m"},
  };
  int fast_total = 0, bisection_total = 0;
  for (const Case& c : cases) {
    const llmsizer::ModelSpec m = test_support::preset(c.model);
    for (const std::int64_t budget : {8 * kGiB, 12 * kGiB, 20 * kGiB, 40 * kGiB}) {
      INFO(c.model << " " << static_cast<int>(c.engine) << " budget " << budget);
      llmsizer::InferenceSettings s = test_support::inference_settings(c.weights, c.engine, 1024, 1024);
      const auto by_input = [&](std::int64_t input) {
        s.input_tokens = input;
        return estimate_inference_memory(m, s, llmsizer::EstimateDetail::bytes_only).device_bytes;
      };
      int calls = 0;
      const auto counted = [&](std::int64_t v) {
        ++calls;
        return by_input(v);
      };
      int bisection_count = 0;
      const std::int64_t hi = 65'536;
      const std::int64_t expected = bisection(1, hi, budget, by_input, bisection_count);
      CHECK(largest_within(1, hi, budget, counted) == expected);
      CHECK(calls <= bisection_calls(1, hi) + llmsizer::kSlack);
      fast_total += calls;
      bisection_total += bisection_count;

      s.input_tokens = 1024;
      const auto by_batch = [&](std::int64_t batch) {
        s.batch = batch;
        return estimate_inference_memory(m, s, llmsizer::EstimateDetail::bytes_only).device_bytes;
      };
      calls = 0;
      const auto counted_batch = [&](std::int64_t v) {
        ++calls;
        return by_batch(v);
      };
      const std::int64_t expected_batch = bisection(1, 4096, budget, by_batch, bisection_count);
      CHECK(largest_within(1, 4096, budget, counted_batch) == expected_batch);
      CHECK(calls <= bisection_calls(1, 4096) + llmsizer::kSlack);
      fast_total += calls;
      bisection_total += bisection_count;
      s.batch = 1;
    }
  }
  // Fewer calls in all: about half of bisection's over these 56 searches.
  CHECK(fast_total * 3 < bisection_total * 2);
}

TEST_CASE("The training searches over real estimates give bisection's answer in fewer calls", "[largest_fitting]") {
  using namespace llmsizer;
  int fast_total = 0, bisection_total = 0;
  for (const char* model : {"qwen2.5-7b-instruct", "smollm2-1.7b-instruct", "llama-3.1-8b-instruct"}) {
    const ModelSpec m = test_support::preset(model);
    for (const TrainingMethod method : {TrainingMethod::full, TrainingMethod::lora, TrainingMethod::qlora}) {
      for (const Checkpointing checkpointing : {Checkpointing::none, Checkpointing::full}) {
        TrainingSettings s;
        s.method = method;
        s.checkpointing = checkpointing;
        for (const std::int64_t budget : {16 * kGiB, 24 * kGiB, 80 * kGiB}) {
          INFO(model << " method " << static_cast<int>(method) << " budget " << budget);
          const auto by_seq = [&](std::int64_t seq) {
            TrainingSettings t = s;
            t.seq_len = seq;
            return estimate_training(m, t).memory.device_bytes;
          };
          int calls = 0;
          const auto counted = [&](std::int64_t v) {
            ++calls;
            return by_seq(v);
          };
          int bisection_count = 0;
          const std::int64_t expected = bisection(1, 32'768, budget, by_seq, bisection_count);
          CHECK(largest_within(1, 32'768, budget, counted) == expected);
          CHECK(calls <= bisection_calls(1, 32'768) + kSlack);
          fast_total += calls;
          bisection_total += bisection_count;
        }
      }
    }
  }
  CHECK(fast_total * 2 < bisection_total);
}

TEST_CASE("ZeRO-1 training needs no less for a longer sequence where its backward peak passes the step's", "[largest_fitting]") {
  // SmolLM2-1.7B, full fp32 training, ZeRO-1 on 8 GPUs, micro-batch 2, selective checkpointing: the
  // step's peak (states + fp32 gradient partitions) is above the backward's up to about 160 tokens and
  // below it after. The activation blocks the caching allocator keeps reserved beside the step's
  // partitions count in both cases: taken only where the step was the higher tensor peak, 138 tokens
  // needed 21,752,370,176 B and 200 tokens 20,701,649,920 B.
  using namespace llmsizer;
  const ModelSpec m = test_support::preset("smollm2-1.7b-instruct");
  TrainingSettings s;
  s.method = TrainingMethod::full;
  s.optimizer = Optimizer::paged_adamw;
  s.precision = TrainingPrecision::fp32;
  s.micro_batch = 2;
  s.checkpointing = Checkpointing::selective;
  s.zero_stage = 1;
  s.gpus = 8;
  std::int64_t previous = 0;
  for (std::int64_t seq = 100; seq <= 320; ++seq) {
    s.seq_len = seq;
    const TrainingEstimate e = estimate_training(m, s);
    INFO("seq_len " << seq);
    CHECK(e.memory.device_bytes >= previous);
    // What the driver holds: the step's peak plus the reserved activation blocks, whichever tensor peak is higher.
    CHECK(e.memory.device_bytes >= e.step_peak_bytes + e.allocator_cached_bytes);
    previous = e.memory.device_bytes;
  }
}

}  // namespace largest_fitting_test

namespace largest_fitting_test {

TEST_CASE("llama.cpp's compute buffer is not monotone in the context: ggml's best-fit allocator places the logits lower", "[largest_fitting]") {
  // Gemma-3-4B Q4_K_M under llama.cpp, 2,048 output tokens. At n_ctx 93,952 the 262,144 × 512 F32
  // logits (537,001,984 B) go at the end of the buffer, above blocks that later tensors took inside
  // the freed KQ mask; at n_ctx 94,208 the mask's 512 more rows shift those blocks so that the end's
  // free block starts 62,914,560 B lower (ggml-alloc.c ggml_dyn_tallocr_alloc: best fit among the
  // free blocks but the last, else the last). The compute buffers of the two: 724,984,064 B and
  // 662,331,648 B. The searches give, as bisection does, a length that fits whose successor does not.
  using namespace llmsizer;
  const ModelSpec m = test_support::preset("gemma-3-4b-it");
  InferenceSettings s = test_support::inference_settings("q4_k_m", Engine::llama_cpp, 93'952 - 2'048, 2'048);
  const std::int64_t shorter = estimate_inference_memory(m, s, EstimateDetail::bytes_only).parts.activations;
  s.input_tokens = 94'208 - 2'048;
  const std::int64_t longer = estimate_inference_memory(m, s, EstimateDetail::bytes_only).parts.activations;
  CHECK(shorter == 724'984'064);
  CHECK(longer == 662'331'648);
  const auto need = [&](std::int64_t input) {
    s.input_tokens = input;
    return estimate_inference_memory(m, s, EstimateDetail::bytes_only).device_bytes;
  };
  // A budget between the two contexts' needs: the answer is a boundary (fits, the next does not).
  s.input_tokens = 94'208 - 2'048;
  const std::int64_t budget = need(94'208 - 2'048) + 1'000'000;
  const std::int64_t found = largest_within(1, 120'000, budget, need);
  CHECK(need(found) <= budget);
  CHECK(need(found + 1) > budget);
}

}  // namespace largest_fitting_test

namespace largest_fitting_test {

TEST_CASE("With llama.cpp's 256-cell padding as the hint, a context search takes a handful of estimates", "[largest_fitting]") {
  // llama.cpp and Ollama pad n_ctx to 256 cells (llama-context.cpp), so memory is a staircase in the
  // input tokens: a guess moved to the end of its step, then its successor, closes the bracket.
  using namespace llmsizer;
  int total = 0;
  for (const Engine engine : {Engine::llama_cpp, Engine::ollama}) {
    const ModelSpec m = test_support::preset("llama-3.1-8b-instruct");
    InferenceSettings s = test_support::inference_settings("q4_k_m", engine, 1024, 1024);
    const auto need = [&](std::int64_t input) {
      s.input_tokens = input;
      return estimate_inference_memory(m, s, EstimateDetail::bytes_only).device_bytes;
    };
    for (const std::int64_t budget : {6 * kGiB, 8 * kGiB, 12 * kGiB}) {
      INFO("engine " << static_cast<int>(engine) << " budget " << budget);
      int calls = 0;
      const auto counted = [&](std::int64_t v) {
        ++calls;
        return need(v);
      };
      const auto last_alike = [&](std::int64_t input) { return last_input_of_same_cache(s, input); };
      int bisection_count = 0;
      const std::int64_t expected = bisection(1, 130'048, budget, need, bisection_count);
      CHECK(largest_within(1, 130'048, budget, counted, last_alike) == expected);
      CHECK(bisection_count == 19);  // need(1), need(130,048), then ceil(log2(130,047)) = 17
      CHECK(calls < bisection_count);
      total += calls;
    }
  }
  // Most searches take four to six (the two ends, a guess moved to the end of its step, its
  // successor); all six together fewer than half of bisection's 6 × 19 = 114.
  CHECK(total < 57);
}


TEST_CASE("llama.cpp's batch search ends where its sequences stop and gives bisection's answer over the whole range", "[largest_fitting]") {
  // llama.cpp and Ollama serve min(batch, 256) sequences (LLAMA_MAX_SEQ, llama-cparams.h), or the
  // parallel slots asked for whatever the batch: beyond that batch the memory is the same.
  using namespace llmsizer;
  constexpr std::int64_t kLimit = 1'000'000;  // fit_request's batch limit
  const ModelSpec m = test_support::preset("llama-3.1-8b-instruct");
  for (const Engine engine : {Engine::llama_cpp, Engine::ollama}) {
    for (const int parallel : {0, 4}) {
      InferenceSettings s = test_support::inference_settings("q4_k_m", engine, 1024, 1024);
      s.llama_cpp.parallel = parallel;
      s.ollama.num_parallel = parallel;
      CHECK(batch_where_memory_stops_growing(m, s) == (parallel > 0 ? 1 : 256));
      const auto by_batch = [&](std::int64_t batch) {
        InferenceSettings b = s;
        b.batch = batch;
        return estimate_inference_memory(m, b, EstimateDetail::bytes_only).device_bytes;
      };
      CHECK(by_batch(kLimit) == by_batch(parallel > 0 ? 1 : 256));
      for (const std::int64_t budget : {6 * kGiB, 12 * kGiB, 40 * kGiB, 400 * kGiB}) {
        INFO("engine " << static_cast<int>(engine) << " parallel " << parallel << " budget " << budget);
        int calls = 0;
        const std::int64_t expected = bisection(1, kLimit, budget, by_batch, calls);
        CHECK(max_batch_that_fits(m, s, 1, budget, kLimit, true) == std::max<std::int64_t>(0, expected));
      }
    }
  }
  // Other engines grow with every batch.
  CHECK(batch_where_memory_stops_growing(m, test_support::inference_settings("bf16", Engine::vllm, 1024, 1024)) == 0);
}

TEST_CASE("An estimate through a kept cache is the estimate without one, in every figure and line", "[largest_fitting]") {
  // The cache (estimate_cache.hpp) keeps llama.cpp's graphs and the model's tensor list between the
  // estimates of one model and layout; asked in any order, repeated, with other settings between,
  // each estimate must be the one made from scratch.
  using namespace llmsizer;
  for (const char* id : {"qwen2.5-7b-instruct", "gemma-3-4b-it"}) {
    const ModelSpec m = test_support::preset(id);
    for (const Engine engine : {Engine::llama_cpp, Engine::ollama}) {
      InferenceSettings s = test_support::inference_settings("q4_k_m", engine, 1024, 1024);
      const WeightsLayout layout = weights_layout(m, *s.weights);
      EstimateCache cache(m, layout);
      struct Ask {
        std::int64_t input;
        std::int64_t batch;
        int gpus;
      };
      // {2000, 1, 1} and {5000, 1, 1} come after a longer context of the same micro-batch: their
      // token-generation graphs are bounded by that one's tensors (compute_buffer_bytes_above).
      const Ask asks[] = {{1024, 1, 1}, {30'000, 1, 1}, {1024, 1, 1}, {1024, 7, 1}, {1024, 300, 1}, {1024, 256, 1}, {4000, 2, 0}, {1024, 1, 2},
                          {30'000, 1, 1}, {2000, 1, 1}, {5000, 1, 1}, {5000, 1, 0}};
      for (const auto& [input, batch, gpus] : asks) {
        INFO(id << " engine " << static_cast<int>(engine) << " input " << input << " batch " << batch << " gpus " << gpus);
        InferenceSettings plain = s;
        plain.input_tokens = input;
        plain.batch = batch;
        plain.gpus = gpus;
        InferenceSettings cached = plain;
        cached.weights_layout = &layout;
        cached.cache = &cache;
        const MemoryEstimate a = estimate_inference_memory(m, plain, EstimateDetail::full);
        const MemoryEstimate b = estimate_inference_memory(m, cached, EstimateDetail::full);
        CHECK(a.device_bytes == b.device_bytes);
        CHECK(a.host_bytes == b.host_bytes);
        CHECK(a.parts.weights == b.parts.weights);
        CHECK(a.parts.kv_cache == b.parts.kv_cache);
        CHECK(a.parts.activations == b.parts.activations);
        REQUIRE(a.explain.size() == b.explain.size());
        for (std::size_t i = 0; i < a.explain.size(); ++i) CHECK(a.explain[i].bytes == b.explain[i].bytes);
      }
      CHECK(cache.planned != nullptr);
      CHECK(!cache.graphs.empty());
      CHECK(cache.weights.size() >= 2);  // placed once on the GPU, once on the CPU alone
    }
  }
}

}  // namespace largest_fitting_test
