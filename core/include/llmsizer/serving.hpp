// SPDX-License-Identifier: MIT
#pragma once
/// Serving many people: a deterministic discrete-event simulation of an engine's continuous
/// batching (serve_engine.hpp) over the step model (step_model.hpp), and what it answers — the
/// throughput, each person's latency at its percentiles, what the KV cache holds, how many
/// replicas meet a latency target, what that costs a month and in energy, and the launch line.
///
/// The simulation, step by step (vLLM's scheduler as its docs describe continuous batching, and
/// each engine's variant in serve_engine.hpp): requests arrive (all at once, a closed loop of
/// `concurrency`, or Poisson at `request_rate` from a fixed seed); each step takes every running
/// sequence's next token and, by the engine's policy, prompt chunks up to its token budget; a
/// prompt is admitted while the KV cache has blocks for it and the batch has room; when decode
/// runs out of blocks the newest sequence is preempted and recomputed later (vLLM's default
/// preemption mode). A sequence's first token comes at the end of the step that completes its
/// prompt; each later step gives it one more.
///
/// Left out: length distributions other than fixed or uniform around the mean, prefix caching,
/// speculative decoding, request priorities, the HTTP server's own time.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "llmsizer/cost.hpp"
#include "llmsizer/hardware.hpp"
#include "llmsizer/memory.hpp"
#include "llmsizer/message.hpp"
#include "llmsizer/model.hpp"
#include "llmsizer/serve_engine.hpp"
#include "llmsizer/step_model.hpp"

namespace llmsizer {

enum class LoadMode { concurrency, request_rate, max_throughput };

/// Requests at most one simulation runs (the contract's range).
constexpr std::int64_t kMaxServeRequests = 100'000;
/// Engine steps one simulation takes at most (about 0.15 s natively, quiet decode steps costing
/// ~30 ns each): a request for 100,000 answers of 10 million tokens stops there, and the answer says
/// how many requests it simulated.
constexpr std::int64_t kMaxSimulatedSteps = 5'000'000;
/// vLLM benchmark_serving.py --num-prompts default: 1000.
constexpr std::int64_t kDefaultServeRequests = 1000;

struct ServeWorkload {
  std::int64_t input_tokens = 1000;
  std::int64_t output_tokens = 1000;
  LoadMode mode = LoadMode::concurrency;
  std::int64_t concurrency = 1;
  double request_rate = 0;          ///< requests per second (mode request_rate)
  std::int64_t requests = kDefaultServeRequests;
  std::uint64_t seed = 0;
  /// Lengths drawn uniformly from [L × (1 − r), L × (1 + r)] (vLLM benchmarks/benchmark_dataset.py
  /// RandomDataset, --random-range-ratio); 0: every request exactly `input_tokens` / `output_tokens`.
  double range_ratio = 0;
};

struct ServeLayout {
  int tp = 1;
  int pp = 1;
  int ep = 1;
  int dp = 1;
};

/// A latency target at a percentile (0: none).
struct ServeSlo {
  double ttft_ms = 0;
  double tpot_ms = 0;
  int percentile = 90;
  bool given() const { return ttft_ms > 0 || tpot_ms > 0; }
};

/// The request's serving settings (request `task: "serve"`).
struct ServeSettings {
  ServeEngine engine = ServeEngine::vllm;
  ServeLayout layout;
  ServeWorkload workload;
  ServeSlo slo;
  ServeEngineOverrides overrides;
};

struct LatencyStats {
  double mean = 0;
  double p50 = 0;
  double p90 = 0;
  double p99 = 0;
  double at(int percentile) const;  ///< p50/p90/p99 (p95: between p90 and p99 by rank)
  double p95 = 0;
};

/// What one simulation measured, as the benchmarks report it.
struct SimulationResult {
  double duration_s = 0;            ///< first arrival to last completion
  std::int64_t requests = 0;
  std::int64_t output_tokens = 0;
  std::int64_t input_tokens = 0;
  LatencyStats ttft_s;
  LatencyStats tpot_s;
  LatencyStats itl_s;
  LatencyStats e2e_s;
  double steady_batch = 0;          ///< decode sequences per decode step, time-weighted
  std::int64_t preemptions = 0;
  std::int64_t steps = 0;
  StepParts typical_step;           ///< the step at the steady batch (decode only)
  double output_tokens_per_s() const { return duration_s > 0 ? static_cast<double>(output_tokens) / duration_s : 0; }
  double total_tokens_per_s() const { return duration_s > 0 ? static_cast<double>(output_tokens + input_tokens) / duration_s : 0; }
  double requests_per_s() const { return duration_s > 0 ? static_cast<double>(requests) / duration_s : 0; }
};

/// The KV cache of one replica.
struct ServeCapacity {
  std::int64_t kv_capacity_tokens = 0;   ///< tokens the pool holds (per replica)
  std::int64_t pool_bytes = 0;           ///< per GPU
  std::int64_t weights_bytes = 0;        ///< per GPU
  std::int64_t reserved_bytes = 0;       ///< per GPU: activations, CUDA context, graphs
  std::int64_t device_bytes = 0;         ///< per GPU: the memory the engine's share is taken of
  std::int64_t max_concurrency = 0;      ///< sequences of prompt + answer the pool and max_num_seqs allow
  bool fits = false;                     ///< the weights leave room for at least one sequence
};

ServeCapacity serve_capacity(const StepModel& step, const ServeEngineProfile& engine, std::int64_t device_bytes, std::int64_t weights_bytes,
                             std::int64_t reserved_bytes, std::int64_t sequence_tokens);

/** One simulation of `workload` on one replica. */
SimulationResult simulate_serving(const StepModel& step, const ServeEngineProfile& engine, const ServeCapacity& capacity,
                                  const ServeWorkload& workload);

/// One point of the throughput-latency curve.
struct ServeCurvePoint {
  std::int64_t concurrency = 0;
  double output_tokens_per_s_per_gpu = 0;
  double per_user_output_tokens_per_s = 0;
  double ttft_ms = 0;   ///< at the SLO's percentile
  double tpot_ms = 0;
  bool meets_slo = true;
};

struct ServeCost {
  std::string basis = "none";        ///< owned, rented, none
  double per_month_usd = 0;
  double per_million_output_tokens_usd = 0;
};

struct ServeEnergy {
  double watts = 0;
  double joules_per_output_token = 0;
  double kwh_per_month = 0;
};

/// One line of the explanation: a part, its formula with the numbers put in.
struct ServeExplain {
  std::string id;
  Message text;
};

struct ServingAnswer {
  ServeCapacity capacity;
  SimulationResult result;          ///< the workload on one replica
  int replicas = 1;
  int gpus_per_replica = 1;
  int gpus_needed = 1;
  bool meets_slo = true;
  bool slo_given = false;
  double output_tokens_per_s = 0;   ///< all replicas
  double total_tokens_per_s = 0;
  double requests_per_s = 0;
  double output_tokens_per_s_per_gpu = 0;
  double per_user_output_tokens_per_s = 0;
  std::vector<ServeCurvePoint> curve;
  ServeCost cost;
  ServeEnergy energy;
  std::string command_line;
  std::vector<ServeExplain> explain;
  Message summary;
  std::vector<Message> notes;       ///< what the simulation left out of this answer (requests it did not reach)
};

/// Everything the serving answer needs besides the step model.
struct ServeInputs {
  const ModelSpec* model = nullptr;
  const WeightFormat* weights = nullptr;
  const KvCacheFormat* kv_cache = nullptr;
  const HardwareSpec* hardware = nullptr;
  int engine_version = 0;
  std::string engine_version_text;
  ServeSettings settings;
  OwnershipCosts costs;
  /// Per GPU, from the memory estimate of the engine's rules: the weights and what the engine keeps
  /// besides weights and KV cache (activations of its largest step, CUDA context, graphs).
  std::int64_t weights_bytes = 0;
  std::int64_t reserved_bytes = 0;
  bool curve = true;                ///< false: no throughput-latency curve (a recommendation's rows)
};

ServingAnswer answer_serving(const ServeInputs& in, const StepModel& step, const ServeEngineProfile& engine);

/// One way to serve the workload in a recommendation: a device (a GPU bought, or an instance
/// rented by the whole), its tensor-parallel group and what it answers.
struct ServeOption {
  const HardwareSpec* hardware = nullptr;
  int tp = 1;
  ServingAnswer answer;
  Message reason;  ///< why it misses (a near miss): the target, or memory
};

struct ServeRecommendation {
  std::vector<ServeOption> options;      ///< meet the target, cheapest a month first
  std::vector<ServeOption> near_misses;  ///< fit but miss the target with kMaxServeReplicas, or fit on no layout tried
  std::size_t evaluated = 0;
};
/// Requests a recommendation simulates per option (at most): each of a hundred devices and layouts is
/// simulated several times by the replica search; 200 requests keep the whole ranking within a
/// second in the page's module while its 90th percentile still rests on 20 requests.
constexpr std::int64_t kServeRecommendRequests = 200;
/// Replicas a recommendation tries before it calls an option a near miss.
constexpr int kMaxServeReplicas = 64;

/** The engine's launch line with these settings. */
std::string serve_command_line(const ServeInputs& in, const ServeEngineProfile& engine);

}  // namespace llmsizer
