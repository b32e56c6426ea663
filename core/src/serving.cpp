// SPDX-License-Identifier: MIT
#include "llmsizer/serving.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <deque>
#include <limits>

#include "exact_math.hpp"
#include "llmsizer/decimal_text.hpp"
#include "llmsizer/recommend.hpp"

namespace llmsizer {
namespace {

/// Concurrencies the curve stops at: powers of two up to this many.
constexpr std::int64_t kCurveMaxConcurrency = 1024;
/// Requests per curve point: enough for two waves of the closed loop, at least this many.
constexpr std::int64_t kCurveMinRequests = 16;

/// Inter-token gaps are counted in a histogram (exact mean; percentiles within 0.8%): every token's
/// gap kept and sorted would be a million values for 1,000 answers of 1,000. Its bins split each
/// power of two from 2^-20 s (~1 µs) to 2^16 s into 64 equal parts, read off the gap's binary
/// exponent and mantissa (frexp: exact, cheap, the same in every build).
constexpr int kGapMinExponent = -20;
constexpr int kGapOctaves = 36;
constexpr int kGapBinsPerOctave = 64;
static_assert(kGapBinsPerOctave == 64, "GapHistogram::add reads a bin as the fraction's top 6 bits");
constexpr int kGapBins = kGapOctaves * kGapBinsPerOctave;

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/// A uniform number in (0, 1] from the generator (53 bits).
double uniform(std::uint64_t& state) { return (static_cast<double>(splitmix64(state) >> 11) + 1.0) / 9007199254740992.0; }

/// Percentile by nearest rank of sorted values.
double nearest_rank(const std::vector<double>& sorted, double percentile) {
  if (sorted.empty()) return 0;
  const auto rank = static_cast<std::size_t>(std::ceil(percentile / 100.0 * static_cast<double>(sorted.size())));
  return sorted[std::min(sorted.size() - 1, rank > 0 ? rank - 1 : 0)];
}

LatencyStats stats_of(std::vector<double> values) {
  LatencyStats s;
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  double sum = 0;
  for (double v : values) sum += v;
  s.mean = sum / static_cast<double>(values.size());
  s.p50 = nearest_rank(values, 50);
  s.p90 = nearest_rank(values, 90);
  s.p95 = nearest_rank(values, 95);
  s.p99 = nearest_rank(values, 99);
  return s;
}

struct GapHistogram {
  /// The bins of the octaves the gaps fell in, 64 to an octave, in the order the octaves were first
  /// met; `octave_at` holds each octave's first bin in `counts` (-1: none met). A simulation's gaps
  /// span a few of the 36 octaves, so only those are zeroed and read.
  std::vector<double> counts;
  std::array<int, kGapOctaves> octave_at;
  double sum = 0;
  double n = 0;
  GapHistogram() { octave_at.fill(-1); }
  /// The bin of a gap.
  static int bin_of(double gap) {
    int exponent = 0;
    int part = 0;
    if (gap >= std::numeric_limits<double>::min()) {
      // A normal double is (1 + f) × 2^(E − 1023) = (0.5 + f / 2) × 2^(E − 1022): frexp's exponent
      // is E − 1022 and its mantissa's place in the octave, (mantissa − 0.5) × 2 × 64, is f's top 6
      // bits (IEEE 754 binary64: 52 fraction bits under 11 exponent bits). Read from the bits, as
      // frexp is a call of the math library at every token.
      std::uint64_t bits = 0;
      std::memcpy(&bits, &gap, sizeof bits);
      exponent = static_cast<int>((bits >> 52) & 0x7ff) - 1022;
      part = static_cast<int>((bits >> (52 - 6)) & (kGapBinsPerOctave - 1));
    } else if (gap > 0) {
      const double mantissa = std::frexp(gap, &exponent);  // subnormal: in [0.5, 1)
      part = std::min(kGapBinsPerOctave - 1, static_cast<int>((mantissa - 0.5) * 2 * kGapBinsPerOctave));
    }
    const int bin = gap > 0 ? (exponent - kGapMinExponent) * kGapBinsPerOctave + part : 0;
    return std::clamp(bin, 0, kGapBins - 1);
  }
  /// Values that certainly share `gap`'s bin: [low, high), the doubles with its exponent and the top
  /// 6 bits of its fraction (positive doubles order as their bits). Empty for a gap that is not a
  /// positive normal double, whose bin bin_of works out each time.
  static void bin_range(double gap, double& low, double& high) {
    low = 1;
    high = 0;
    if (!(gap >= std::numeric_limits<double>::min() && gap <= std::numeric_limits<double>::max())) return;
    constexpr std::uint64_t kBinWidth = std::uint64_t{1} << (52 - 6);
    std::uint64_t bits = 0;
    std::memcpy(&bits, &gap, sizeof bits);
    const std::uint64_t low_bits = bits & ~(kBinWidth - 1);
    const std::uint64_t high_bits = low_bits + kBinWidth;  // the next bin's first value (+inf past the largest)
    std::memcpy(&low, &low_bits, sizeof low);
    std::memcpy(&high, &high_bits, sizeof high);
  }
  /// The place of `bin` in `counts`, its octave's bins made when first met.
  std::size_t slot(int bin) {
    int& first = octave_at[static_cast<std::size_t>(bin / kGapBinsPerOctave)];
    if (first < 0) {
      first = static_cast<int>(counts.size());
      counts.resize(counts.size() + kGapBinsPerOctave, 0.0);
    }
    return static_cast<std::size_t>(first + bin % kGapBinsPerOctave);
  }
  double& count(int bin) { return counts[slot(bin)]; }
  /// The last gap added and its slot: a step's decoding sequences mostly share their gap (the step's
  /// time since the one before), so its bin is looked up once.
  double last_gap = std::numeric_limits<double>::quiet_NaN();
  std::size_t last_slot = 0;
  void add(double gap, double times) {
    if (times <= 0) return;
    sum += gap * times;
    n += times;
    if (!(gap == last_gap)) {
      last_slot = slot(bin_of(gap));
      last_gap = gap;
    }
    counts[last_slot] += times;
  }
  /// The p50, p90, p95 and p99 in one pass over the bins, lowest first: each the middle of the first
  /// bin whose running count reaches its rank (mantissa 0.5 + (part + 0.5) / 128 at the bin's
  /// exponent). Bins never met hold nothing: passing over them leaves the running count as it was.
  LatencyStats stats() const {
    LatencyStats s;
    if (n <= 0) return s;
    s.mean = sum / n;
    double* const at[] = {&s.p50, &s.p90, &s.p95, &s.p99};
    const double target[] = {std::ceil(50 / 100.0 * n), std::ceil(90 / 100.0 * n), std::ceil(95 / 100.0 * n), std::ceil(99 / 100.0 * n)};
    std::size_t next = 0;
    double seen = 0;
    for (int octave = 0; octave < kGapOctaves && next < 4; ++octave) {
      const int first = octave_at[static_cast<std::size_t>(octave)];
      if (first < 0) continue;
      for (int part = 0; part < kGapBinsPerOctave && next < 4; ++part) {
        seen += counts[static_cast<std::size_t>(first + part)];
        while (next < 4 && seen >= target[next] && seen > 0) {
          const double mantissa = 0.5 + (part + 0.5) / (2.0 * kGapBinsPerOctave);
          *at[next++] = std::ldexp(mantissa, octave + kGapMinExponent);
        }
      }
    }
    return s;
  }
};

/// The clock and the sums a run of quiet steps adds to.
struct QuietSums {
  double t = 0;
  double gap_sum = 0;         ///< GapHistogram::sum
  double batch_time = 0;      ///< time in decode steps
  double batch_weighted = 0;  ///< time in decode steps × the sequences decoding
};

/** Quiet steps j = `from`, `from` + 1, ... below `ahead` of `n` decoding sequences while the clock
 *  is before `next`, each taking `step_time_of(j)`: its time added to the clock and the sums and its
 *  gap, n times, to `gaps`. The same sums in the same order as one add per step; the counts of a run
 *  of steps in one bin are added at once (whole numbers: exact in any order), and a step's bin is
 *  looked up only when its time leaves the range of the run's bin. Returns the step it stopped at.
 *  Not inlined: in a function of its own the sums stay in registers, where in the simulation's
 *  frame each step stored and loaded them. */
template <class StepTime>
[[gnu::noinline]] std::int64_t time_quiet_steps(const StepTime& step_time_of, std::int64_t from, std::int64_t ahead, double next,
                                                std::int64_t n, QuietSums& sums, GapHistogram& gaps) {
  const double nd = static_cast<double>(n);
  double t = sums.t;
  double gap_sum = sums.gap_sum;
  double time_sum = sums.batch_time;
  double weighted_sum = sums.batch_weighted;
  int run_bin = -1;
  double run_count = 0;
  double bin_low = 1;  // the run's bin's range of values (GapHistogram::bin_range): none yet
  double bin_high = 0;
  std::int64_t j = from;
  for (; j < ahead && t < next; ++j) {
    const double dt = step_time_of(j);
    t += dt;
    gap_sum += dt * nd;
    time_sum += dt;
    weighted_sum += dt * nd;
    if (!(dt >= bin_low && dt < bin_high)) {
      const int bin = GapHistogram::bin_of(dt);
      if (bin != run_bin) {
        if (run_bin >= 0) gaps.count(run_bin) += run_count;
        run_bin = bin;
        run_count = 0;
      }
      GapHistogram::bin_range(dt, bin_low, bin_high);
    }
    run_count += nd;
  }
  if (run_bin >= 0) gaps.count(run_bin) += run_count;
  sums = {t, gap_sum, time_sum, weighted_sum};
  return j;
}

struct Sequence {
  double arrival = 0;
  std::int64_t prompt = 0;
  std::int64_t output = 0;
  std::int64_t computed = 0;   ///< tokens in the KV cache
  std::int64_t generated = 0;  ///< answer tokens produced
  std::int64_t blocks = 0;
  double first_token = -1;
  double last_token = 0;
  std::int64_t chunk = 0;      ///< prompt tokens computed in the step being built
  bool decoding = false;       ///< takes a decode token in the step being built
  /// Tokens to compute before the next token comes: the prompt, and after a preemption by
  /// recompute also what had been generated (its last token is the next step's input).
  std::int64_t prefill_target() const { return prompt + std::max<std::int64_t>(0, generated - 1); }
  /// Its prompt is in the cache: each step gives it one token.
  bool in_decode() const { return generated > 0 && computed >= prefill_target(); }
};

/// Relative difference below which quiet steps' times are taken as a line (float rounding of the
/// step's sums is ~1e-16 of it).
constexpr double kLinearStepTolerance = 1e-12;

std::int64_t blocks_for(std::int64_t tokens, std::int64_t block) { return (tokens + block - 1) / block; }

/** Decode steps that can run before anything but the cache's size changes: every running sequence
 *  decoding, no prompt waiting that could join (`none_can_join`), each answer short of its end, no
 *  sequence reaching a sliding window, and blocks for all of them. 0 when the next step must be
 *  built sequence by sequence. */
std::int64_t quiet_steps(const std::vector<Sequence>& seqs, const std::vector<std::size_t>& running, bool none_can_join,
                         std::int64_t free_blocks, std::int64_t block, const StepModel& model) {
  if (!none_can_join || running.empty()) return 0;
  std::int64_t ahead = std::numeric_limits<std::int64_t>::max();
  for (std::size_t idx : running) {
    const Sequence& q = seqs[idx];
    if (!q.in_decode()) return 0;
    ahead = std::min(ahead, q.output - q.generated - 1);  // the step that ends it is built in full
    for (const StepModel::Windowed& win : model.windowed) {
      if (q.computed + 1 < win.window) ahead = std::min(ahead, win.window - q.computed - 1);
    }
  }
  // Each sequence takes a new block at most every `block` tokens.
  const auto n = static_cast<std::int64_t>(running.size());
  const std::int64_t affordable = (free_blocks / n - 1) * block;
  return std::max<std::int64_t>(0, std::min(ahead, affordable));
}

}  // namespace

double LatencyStats::at(int percentile) const {
  if (percentile <= 50) return p50;
  if (percentile <= 90) return p90;
  if (percentile <= 95) return p95;
  return p99;
}

ServeCapacity serve_capacity(const StepModel& step, const ServeEngineProfile& engine, std::int64_t device_bytes, std::int64_t weights_bytes,
                             std::int64_t reserved_bytes, std::int64_t sequence_tokens) {
  ServeCapacity c;
  c.device_bytes = device_bytes;
  c.weights_bytes = weights_bytes;
  c.reserved_bytes = reserved_bytes;
  const double per_token = sequence_kv_bytes(step, sequence_tokens) / static_cast<double>(std::max<std::int64_t>(1, sequence_tokens));
  double pool = 0;
  if (engine.slots > 0) {
    // llama-server / Ollama: the context the person set, whatever memory is left.
    pool = per_token * static_cast<double>(engine.context_tokens);
    const double left = static_cast<double>(device_bytes - weights_bytes - reserved_bytes);
    c.pool_bytes = static_cast<std::int64_t>(pool);
    c.kv_capacity_tokens = pool <= left ? engine.context_tokens : 0;
  } else {
    if (engine.memory_basis == ServeEngineProfile::MemoryBasis::free_after_weights) {
      pool = engine.memory_fraction * static_cast<double>(device_bytes - weights_bytes - reserved_bytes);
    } else if (engine.engine == ServeEngine::sglang) {
      // mem_fraction_static covers the weights and the pool; activations live in the rest.
      pool = engine.memory_fraction * static_cast<double>(device_bytes) - static_cast<double>(weights_bytes);
    } else {
      pool = engine.memory_fraction * static_cast<double>(device_bytes) - static_cast<double>(weights_bytes + reserved_bytes);
    }
    pool = std::max(0.0, pool);
    std::int64_t tokens = per_token > 0 ? static_cast<std::int64_t>(pool / per_token) : 0;
    if (engine.kv_cache_tokens > 0 && per_token > 0) {
      // A size given in tokens: it replaces the share (vLLM, LMDeploy) or caps it (SGLang,
      // TensorRT-LLM), within what the weights and activations leave.
      const bool caps = engine.engine == ServeEngine::sglang || engine.engine == ServeEngine::tensorrt_llm;
      const double left = std::max(0.0, static_cast<double>(device_bytes - weights_bytes - reserved_bytes));
      tokens = std::min(engine.kv_cache_tokens, static_cast<std::int64_t>((caps ? pool : left) / per_token));
      pool = per_token * static_cast<double>(tokens);
    }
    c.pool_bytes = static_cast<std::int64_t>(pool);
    c.kv_capacity_tokens = tokens / engine.block_tokens * engine.block_tokens;
  }
  const std::int64_t per_sequence = blocks_for(sequence_tokens, engine.block_tokens) * engine.block_tokens;
  const std::int64_t held = engine.slots > 0 ? (per_sequence > 0 ? engine.context_tokens / per_sequence : 0) : c.kv_capacity_tokens / std::max<std::int64_t>(1, per_sequence);
  c.max_concurrency = std::min(engine.max_num_seqs, held);
  if (c.kv_capacity_tokens == 0) c.max_concurrency = 0;
  c.fits = c.max_concurrency >= 1;
  return c;
}

SimulationResult simulate_serving(const StepModel& model, const ServeEngineProfile& engine, const ServeCapacity& capacity,
                                  const ServeWorkload& w) {
  SimulationResult r;
  if (!capacity.fits || w.requests <= 0) return r;
  const std::int64_t block = std::max<std::int64_t>(1, engine.block_tokens);
  const std::int64_t total_blocks = capacity.kv_capacity_tokens / block;
  std::int64_t free_blocks = total_blocks;
  const std::int64_t budget = std::max<std::int64_t>(1, engine.max_num_batched_tokens);
  const std::int64_t chunk_cap = engine.chunk_tokens > 0 ? engine.chunk_tokens : budget;

  std::vector<Sequence> seqs;
  seqs.reserve(static_cast<std::size_t>(w.requests));
  std::vector<double> arrivals;  // request_rate: every arrival, in order
  std::uint64_t rng = w.seed;
  std::uint64_t lengths_rng = w.seed ^ 0x5DEECE66DULL;  // its own stream: lengths do not move the arrivals
  std::int64_t issued = 0;
  const auto length = [&](std::int64_t mean) {
    if (w.range_ratio <= 0) return mean;
    const auto low = static_cast<std::int64_t>(static_cast<double>(mean) * (1.0 - w.range_ratio));
    const auto high = static_cast<std::int64_t>(static_cast<double>(mean) * (1.0 + w.range_ratio));
    const auto span = static_cast<double>(high - low + 1);
    return std::max<std::int64_t>(1, low + std::min(high - low, static_cast<std::int64_t>(uniform(lengths_rng) * span)));
  };
  const auto issue = [&](double at) {
    Sequence& s = seqs.emplace_back();
    s.arrival = at;
    s.prompt = length(w.input_tokens);
    s.output = length(std::max<std::int64_t>(1, w.output_tokens));
    ++issued;
  };
  std::deque<std::size_t> waiting;
  std::vector<std::size_t> running;
  std::size_t next_arrival = 0;  // request_rate: index into arrivals
  if (w.mode == LoadMode::request_rate && w.request_rate > 0) {
    double t = 0;
    for (std::int64_t i = 0; i < w.requests; ++i) {
      t += -exact::log(uniform(rng)) / w.request_rate;
      arrivals.push_back(t);
    }
  } else {
    const std::int64_t first = w.mode == LoadMode::concurrency ? std::min(w.requests, std::max<std::int64_t>(1, w.concurrency)) : w.requests;
    for (std::int64_t i = 0; i < first; ++i) {
      issue(0.0);
      waiting.push_back(seqs.size() - 1);
    }
  }

  std::vector<double> ttft;
  std::vector<double> tpot;
  std::vector<double> e2e;
  ttft.reserve(static_cast<std::size_t>(w.requests));
  tpot.reserve(static_cast<std::size_t>(w.requests));
  e2e.reserve(static_cast<std::size_t>(w.requests));
  GapHistogram gaps;
  double t = 0;
  double first_arrival = w.mode == LoadMode::request_rate && !arrivals.empty() ? arrivals.front() : 0.0;
  double last_finish = 0;
  double batch_time = 0;
  double batch_weighted = 0;
  std::int64_t completed = 0;
  const std::int64_t step_limit = kMaxSimulatedSteps;
  // vLLM's preemption by recompute: the newest running sequence gives its blocks back and waits at
  // the front of the queue to compute its prompt (and what it had generated) again.
  const auto preempt_newest = [&]() {
    const std::size_t victim = running.back();
    Sequence& v = seqs[victim];
    free_blocks += v.blocks;
    v.blocks = 0;
    v.computed = 0;
    running.pop_back();
    waiting.push_front(victim);
    ++r.preemptions;
  };

  while (completed < w.requests && r.steps < step_limit) {
    while (next_arrival < arrivals.size() && arrivals[next_arrival] <= t) {
      issue(arrivals[next_arrival++]);
      waiting.push_back(seqs.size() - 1);
    }
    if (running.empty() && waiting.empty()) {
      if (next_arrival < arrivals.size()) {
        t = arrivals[next_arrival];
        continue;
      }
      break;
    }
    // Steps with nothing to decide — every running sequence decoding, no prompt that could join, no
    // answer ending, blocks enough — differ only in the cache they read, which grows linearly:
    // they are timed in a row without visiting each sequence (the same steps, the same times).
    if (const std::int64_t ahead = quiet_steps(seqs, running, waiting.empty() || static_cast<std::int64_t>(running.size()) >= engine.max_num_seqs,
                                               free_blocks, block, model);
        ahead > 1) {
      const double next = next_arrival < arrivals.size() ? arrivals[next_arrival] : 1e300;
      const auto n = static_cast<std::int64_t>(running.size());
      double kv = 0;
      double slope = model.kv_bytes_per_token * static_cast<double>(n);
      for (std::size_t idx : running) {
        const Sequence& q = seqs[idx];
        kv += sequence_kv_bytes(model, q.computed + 1);
        for (const StepModel::Windowed& win : model.windowed) {
          if (q.computed + 1 < win.window) slope += win.bytes_per_token;
        }
      }
      // A quiet step's time is linear in the cache it reads: every part but the KV reads is the same
      // each step, and the KV reads keep their side of the roofline (their bytes and FLOPs both grow
      // with the cache). Launches the GPU stops hiding on the way would bend the line: the middle
      // step's time decides whether the line through the first and the last holds.
      StepBatch quiet;
      quiet.decode_sequences = n;
      const auto time_at = [&](std::int64_t j) {
        quiet.decode_kv_bytes = kv + slope * static_cast<double>(j);
        return step_time(model, quiet).total_s;
      };
      const double first = time_at(0);
      const std::int64_t last = ahead - 1;
      const double per_step = last > 0 ? (time_at(last) - first) / static_cast<double>(last) : 0.0;
      const std::int64_t middle = last / 2;
      const bool linear = std::abs(time_at(middle) - (first + per_step * static_cast<double>(middle))) <= kLinearStepTolerance * first;
      std::int64_t done = 0;
      if (t < next) {
        // The first gap runs from each sequence's own last token (a prompt step may have come between).
        t += first;
        for (std::size_t idx : running) gaps.add(t - seqs[idx].last_token, 1.0);
        batch_time += first;
        batch_weighted += first * static_cast<double>(n);
        done = 1;
      }
      // The rest, each a gap of every sequence.
      QuietSums sums{t, gaps.sum, batch_time, batch_weighted};
      const std::int64_t from = done;
      done = linear ? time_quiet_steps([&](std::int64_t j) { return first + per_step * static_cast<double>(j); }, from, ahead, next, n, sums, gaps)
                    : time_quiet_steps(time_at, from, ahead, next, n, sums, gaps);
      t = sums.t;
      gaps.sum = sums.gap_sum;
      gaps.n += static_cast<double>(n) * static_cast<double>(done - from);
      batch_time = sums.batch_time;
      batch_weighted = sums.batch_weighted;
      r.steps += done;
      for (std::size_t idx : running) {
        Sequence& q = seqs[idx];
        q.computed += done;
        q.generated += done;
        q.last_token = t;
        const std::int64_t blocks = blocks_for(q.computed, block);
        free_blocks -= blocks - q.blocks;
        q.blocks = blocks;
      }
      continue;
    }
    // Decode: every running sequence whose prompt is in the cache takes its next token; blocks for
    // it come first, preempting the newest sequence when the cache is full (vLLM's recompute).
    std::int64_t decode = 0;
    for (std::size_t i = 0; i < running.size(); ++i) {
      Sequence& s = seqs[running[i]];
      s.chunk = 0;
      s.decoding = s.in_decode();
      if (!s.decoding) continue;
      // Whether the token lands in the sequence's last block, told without a division at every token.
      const std::int64_t upto = s.computed + 1;
      const bool in_last = upto <= s.blocks * block && upto > (s.blocks - 1) * block;
      const std::int64_t need = in_last ? 0 : blocks_for(upto, block) - s.blocks;
      while (need > free_blocks && running.size() - 1 > i) {
        preempt_newest();
      }
      if (need > free_blocks) {
        s.decoding = false;
        continue;
      }
      free_blocks -= need;
      s.blocks += need;
      ++decode;
    }
    // Prompts: chunks of running prompts, then new ones, within the token budget.
    const bool prefill_only = engine.policy == BatchPolicy::prefill_first;
    std::int64_t room = budget - (prefill_only ? 0 : decode);
    std::int64_t prefill_tokens = 0;
    StepBatch b;
    const auto chunk_of = [&](Sequence& s, std::int64_t whole) -> bool {
      const std::int64_t target = s.prefill_target();
      std::int64_t chunk = std::min({target - s.computed, room, chunk_cap});
      if (chunk <= 0) return false;
      // Blocks for the chunk (the whole prompt where the engine admits whole prompts).
      const std::int64_t upto = whole > 0 ? std::max(s.computed + chunk, whole) : s.computed + chunk;
      const std::int64_t need = blocks_for(upto, block) - s.blocks;
      if (need > free_blocks) return false;
      free_blocks -= need;
      s.blocks += need;
      s.chunk = chunk;
      room -= chunk;
      prefill_tokens += chunk;
      return true;
    };
    for (std::size_t idx : running) {
      Sequence& s = seqs[idx];
      if (s.decoding || room <= 0) continue;
      chunk_of(s, 0);
    }
    // SGLang admits a prompt only while the pool keeps new_token_ratio of every running answer;
    // TensorRT-LLM's GUARANTEED_NO_EVICT (share 1) only while it keeps every running sequence's
    // whole length, prompt and answer, in blocks (what it has yet to allocate of it).
    const bool no_evict = engine.admission_output_share >= 1.0;
    const auto reserve_of = [&](const Sequence& q) {
      if (no_evict) return static_cast<double>(std::max<std::int64_t>(0, blocks_for(q.prompt + q.output, block) - q.blocks) * block);
      return engine.admission_output_share * static_cast<double>(q.output - q.generated);
    };
    double reserved_tokens = 0;
    if (engine.admission_output_share > 0) {
      for (std::size_t idx : running) reserved_tokens += reserve_of(seqs[idx]);
    }
    while (!waiting.empty() && room > 0 && static_cast<std::int64_t>(running.size()) < engine.max_num_seqs) {
      Sequence& s = seqs[waiting.front()];
      if (engine.admission_output_share > 0) {
        const double own = no_evict ? reserve_of(s) : static_cast<double>(s.prompt) + reserve_of(s);
        if (static_cast<double>(free_blocks * block) - reserved_tokens - own < 0) break;
        if (!no_evict) reserved_tokens += reserve_of(s);
      }
      // vLLM V0 and SGLang (prefill first) allocate the whole prompt at admission.
      if (!chunk_of(s, prefill_only ? s.prefill_target() : 0)) break;
      if (no_evict) reserved_tokens += reserve_of(s);  // what its first chunk left to allocate
      running.push_back(waiting.front());
      waiting.pop_front();
    }
    if (prefill_only && prefill_tokens > 0) {
      // A prompt step: the decode tokens wait (their blocks stay allocated for the next step).
      for (std::size_t idx : running) seqs[idx].decoding = false;
      decode = 0;
    }
    if (decode == 0 && prefill_tokens == 0) {
      // Nothing fits: preempt the newest sequence to free its blocks (the oldest always fits).
      if (running.size() > 1) {
        preempt_newest();
        continue;
      }
      if (next_arrival < arrivals.size()) {
        t = std::max(t, arrivals[next_arrival]);
        continue;
      }
      break;  // cannot happen when the capacity fits one sequence
    }
    // The step's work.
    for (std::size_t idx : running) {
      const Sequence& s = seqs[idx];
      if (s.decoding) {
        b.decode_kv_bytes += sequence_kv_bytes(model, s.computed + 1);
      } else if (s.chunk > 0) {
        const double prefix = static_cast<double>(s.computed);
        b.prefill_attention_pairs += static_cast<double>(s.chunk) * (prefix + static_cast<double>(s.chunk) / 2.0);
        if (s.computed > 0) b.prefill_kv_bytes += sequence_kv_bytes(model, s.computed);
        b.prefill_sequences += 1;
        if (s.computed + s.chunk >= s.prefill_target()) b.prefill_logit_sequences += 1;
      }
    }
    b.decode_sequences = decode;
    b.prefill_tokens = prefill_tokens;
    const StepParts parts = step_time(model, b);
    t += parts.total_s;
    ++r.steps;
    if (decode > 0) {
      batch_time += parts.total_s;
      batch_weighted += parts.total_s * static_cast<double>(decode);
    }
    // Advance every sequence; finished ones leave and free their blocks.
    std::size_t kept = 0;
    for (std::size_t i = 0; i < running.size(); ++i) {
      const std::size_t idx = running[i];
      Sequence& s = seqs[idx];
      bool token = false;
      if (s.decoding) {
        s.computed += 1;
        token = true;
      } else if (s.chunk > 0) {
        s.computed += s.chunk;
        token = s.computed >= s.prefill_target();
      }
      if (token) {
        if (s.first_token < 0) {
          s.first_token = t;
          ttft.push_back(t - s.arrival + engine.front_end_s);
        } else {
          gaps.add(t - s.last_token, 1.0);
        }
        s.last_token = t;
        s.generated += 1;
      }
      s.chunk = 0;
      s.decoding = false;
      if (s.generated >= s.output) {
        free_blocks += s.blocks;
        s.blocks = 0;
        e2e.push_back(t - s.arrival + engine.front_end_s);
        if (s.output > 1) tpot.push_back((t - s.first_token) / static_cast<double>(s.output - 1));
        last_finish = t;
        ++completed;
        r.output_tokens += s.output;
        r.input_tokens += s.prompt;
        if (w.mode == LoadMode::concurrency && issued < w.requests) {
          issue(t);
          waiting.push_back(seqs.size() - 1);
        }
        continue;
      }
      running[kept++] = idx;
    }
    running.resize(kept);
  }
  r.requests = completed;
  r.duration_s = last_finish - first_arrival;
  r.ttft_s = stats_of(std::move(ttft));
  r.tpot_s = stats_of(std::move(tpot));
  r.e2e_s = stats_of(std::move(e2e));
  r.itl_s = gaps.stats();
  r.steady_batch = batch_time > 0 ? batch_weighted / batch_time : 0;
  // The step at the steady batch, each sequence halfway through its answer.
  StepBatch typical;
  typical.decode_sequences = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::llround(r.steady_batch)));
  typical.decode_kv_bytes = static_cast<double>(typical.decode_sequences) * sequence_kv_bytes(model, w.input_tokens + w.output_tokens / 2);
  r.typical_step = step_time(model, typical);
  return r;
}

namespace {

bool meets(const SimulationResult& r, const ServeSlo& slo) {
  if (slo.ttft_ms > 0 && r.ttft_s.at(slo.percentile) * 1e3 > slo.ttft_ms) return false;
  if (slo.tpot_ms > 0 && r.tpot_s.at(slo.percentile) * 1e3 > slo.tpot_ms) return false;
  return true;
}

/// The workload one of `replicas` replicas receives.
ServeWorkload share_of(const ServeWorkload& w, int replicas) {
  ServeWorkload s = w;
  const auto n = static_cast<std::int64_t>(std::max(1, replicas));
  s.concurrency = (w.concurrency + n - 1) / n;
  s.request_rate = w.request_rate / static_cast<double>(n);
  s.requests = std::max<std::int64_t>(1, (w.requests + n - 1) / n);
  return s;
}

std::string format_number(double value, int digits) { return fixed_text(value, digits); }

}  // namespace

std::string serve_command_line(const ServeInputs& in, const ServeEngineProfile& e) {
  const ServeLayout& l = in.settings.layout;
  const std::string model = in.model->hf_repo.empty() ? in.model->name : in.model->hf_repo;
  const std::int64_t context = in.settings.workload.input_tokens + in.settings.workload.output_tokens;
  const std::string kv(in.kv_cache->id);
  std::string line;
  switch (e.engine) {
    case ServeEngine::vllm:
      line = "vllm serve " + model + " --tensor-parallel-size " + std::to_string(l.tp);
      if (l.pp > 1) line += " --pipeline-parallel-size " + std::to_string(l.pp);
      if (l.dp > 1) line += " --data-parallel-size " + std::to_string(l.dp);
      line += " --max-model-len " + std::to_string(context) + " --max-num-seqs " + std::to_string(e.max_num_seqs) +
              " --max-num-batched-tokens " + std::to_string(e.max_num_batched_tokens) + " --gpu-memory-utilization " +
              format_number(e.memory_fraction, 2);
      if (kv == "fp8") line += " --kv-cache-dtype fp8";
      if (e.scheduler_steps > 1) line += " --num-scheduler-steps " + std::to_string(e.scheduler_steps);
      return line;
    case ServeEngine::sglang:
      line = "python -m sglang.launch_server --model-path " + model + " --tp " + std::to_string(l.tp);
      if (l.dp > 1) line += " --dp " + std::to_string(l.dp);
      line += " --context-length " + std::to_string(context) + " --mem-fraction-static " + format_number(e.memory_fraction, 2) +
              " --chunked-prefill-size " + std::to_string(e.chunk_tokens);
      if (kv == "fp8") line += " --kv-cache-dtype fp8_e4m3";
      if (e.policy == BatchPolicy::mixed) line += " --enable-mixed-chunk";
      return line;
    case ServeEngine::tensorrt_llm:
      line = "trtllm-serve " + model + " --tp_size " + std::to_string(l.tp);
      if (l.pp > 1) line += " --pp_size " + std::to_string(l.pp);
      line += " --max_batch_size " + std::to_string(e.max_num_seqs) + " --max_num_tokens " + std::to_string(e.max_num_batched_tokens) +
              " --max_seq_len " + std::to_string(context) + " --kv_cache_free_gpu_memory_fraction " + format_number(e.memory_fraction, 2);
      return line;
    case ServeEngine::lmdeploy:
      return "lmdeploy serve api_server " + model + " --backend turbomind --tp " + std::to_string(l.tp) + " --session-len " +
             std::to_string(context) + " --max-batch-size " + std::to_string(e.max_num_seqs) + " --cache-max-entry-count " +
             format_number(e.memory_fraction, 2) + (kv == "fp8" || kv == "q8_0" ? " --quant-policy 8" : "");
    case ServeEngine::llama_cpp:
      return "llama-server -m MODEL.gguf -c " + std::to_string(e.context_tokens) + " -np " + std::to_string(e.slots) + " -b " +
             std::to_string(e.max_num_batched_tokens) + " -ub " + std::to_string(e.ubatch_tokens) + " -ngl 999 -fa on" +
             (kv == "q8_0" ? " -ctk q8_0 -ctv q8_0" : "");
    case ServeEngine::ollama:
      return "OLLAMA_NUM_PARALLEL=" + std::to_string(e.slots) + " OLLAMA_CONTEXT_LENGTH=" + std::to_string(e.context_tokens / std::max<std::int64_t>(1, e.slots)) +
             " ollama serve";
  }
  return line;
}

ServingAnswer answer_serving(const ServeInputs& in, const StepModel& step, const ServeEngineProfile& engine) {
  ServingAnswer a;
  const ServeSettings& s = in.settings;
  const HardwareSpec& hw = *in.hardware;
  const ServeWorkload& w = s.workload;
  const std::int64_t sequence_tokens = w.input_tokens + w.output_tokens;
  const std::int64_t device = hw.cuda_total_bytes > 0 ? hw.cuda_total_bytes : hw.device_memory_bytes;
  a.capacity = serve_capacity(step, engine, device, in.weights_bytes, in.reserved_bytes, sequence_tokens);
  a.gpus_per_replica = std::max(1, s.layout.tp) * std::max(1, s.layout.pp);
  a.slo_given = s.slo.given();
  a.command_line = serve_command_line(in, engine);
  const ServeCapacity& cap = a.capacity;
  if (!cap.fits) {
    a.meets_slo = false;
    a.replicas = 0;
    a.gpus_needed = 0;
    a.summary = Message("serve.summary.does_not_fit").bytes("weights", cap.weights_bytes).bytes("device", cap.device_bytes);
    return a;
  }
  // The workload over the layout's data-parallel replicas, then as many more as the SLO needs.
  int replicas = std::max(1, s.layout.dp);
  a.result = simulate_serving(step, engine, cap, share_of(w, replicas));
  if (a.slo_given && w.mode != LoadMode::max_throughput) {
    while (!meets(a.result, s.slo) && replicas < kMaxServeReplicas) {
      // More replicas help only while the share of each shrinks.
      const ServeWorkload next = share_of(w, replicas * 2);
      if (w.mode == LoadMode::concurrency && next.concurrency == share_of(w, replicas).concurrency) break;
      replicas *= 2;
      a.result = simulate_serving(step, engine, cap, next);
    }
    // Back off to the fewest replicas that still meet it (between replicas / 2 and replicas).
    if (meets(a.result, s.slo)) {
      int low = std::max(std::max(1, s.layout.dp), replicas / 2);
      int high = replicas;
      SimulationResult best = a.result;
      while (high - low > 1) {
        const int mid = (low + high) / 2;
        SimulationResult r = simulate_serving(step, engine, cap, share_of(w, mid));
        if (meets(r, s.slo)) {
          high = mid;
          best = std::move(r);
        } else {
          low = mid;
        }
      }
      if (high != replicas) {
        replicas = high;
        a.result = std::move(best);
      }
    }
  }
  a.meets_slo = !a.slo_given || meets(a.result, s.slo);
  const std::int64_t asked = share_of(w, replicas).requests;
  if (a.result.requests < asked) {
    a.notes.push_back(Message("serve.note.truncated").grouped("simulated", a.result.requests).grouped("requests", asked).grouped("steps", kMaxSimulatedSteps));
  }
  a.replicas = replicas;
  a.gpus_needed = replicas * a.gpus_per_replica;
  const SimulationResult& r = a.result;
  a.output_tokens_per_s = r.output_tokens_per_s() * replicas;
  a.total_tokens_per_s = r.total_tokens_per_s() * replicas;
  a.requests_per_s = r.requests_per_s() * replicas;
  a.output_tokens_per_s_per_gpu = a.output_tokens_per_s / a.gpus_needed;
  a.per_user_output_tokens_per_s = r.tpot_s.mean > 0 ? 1.0 / r.tpot_s.mean : 0;

  // The curve: closed loops of 1, 2, 4, ... sequences up to what the cache holds.
  const std::int64_t top = in.curve ? std::min(cap.max_concurrency, kCurveMaxConcurrency) : 0;
  for (std::int64_t c = 1; c <= top; c *= 2) {
    ServeWorkload point = w;
    point.mode = LoadMode::concurrency;
    point.concurrency = c;
    point.requests = std::max(kCurveMinRequests, 2 * c);
    const SimulationResult pr = simulate_serving(step, engine, cap, point);
    ServeCurvePoint p;
    p.concurrency = c;
    p.output_tokens_per_s_per_gpu = pr.output_tokens_per_s() / a.gpus_per_replica;
    p.per_user_output_tokens_per_s = pr.tpot_s.mean > 0 ? 1.0 / pr.tpot_s.mean : 0;
    p.ttft_ms = pr.ttft_s.at(s.slo.percentile) * 1e3;
    p.tpot_ms = pr.tpot_s.at(s.slo.percentile) * 1e3;
    p.meets_slo = meets(pr, s.slo);
    a.curve.push_back(p);
  }

  // Energy: the boards at their power (the datasheet's TDP: a full-load figure, an upper bound).
  a.energy.watts = hw.tdp_w * a.gpus_needed;
  if (a.output_tokens_per_s > 0 && a.energy.watts > 0) a.energy.joules_per_output_token = a.energy.watts / a.output_tokens_per_s;
  const double hours_per_month = in.costs.hours_per_day * kDaysPerMonth;
  a.energy.kwh_per_month = a.energy.watts / 1000.0 * hours_per_month * in.costs.utilization * in.costs.pue;

  // Cost: instances rented by the whole (as many as the GPUs need), else the cards bought with the
  // box around them (recommend.hpp purchase_of) over their life, with their power and upkeep; for
  // the hours a month the person runs them (cost.hpp OwnershipCosts::hours_per_day).
  double usd_per_hour = 0;
  if (hw.is_rented()) {
    a.cost.basis = "rented";
    const int per_instance = std::max(1, hw.device_count);
    usd_per_hour = hw.price_usd_per_hour * ((a.gpus_needed + per_instance - 1) / per_instance);
  } else if (const Purchase bought = purchase_of(hw, a.gpus_needed, 0, 0, in.costs); bought.known()) {
    a.cost.basis = "owned";
    usd_per_hour = owned_hourly_cost(bought.total_usd(), bought.power_w, in.costs).total_usd_per_hour;
  }
  a.cost.per_month_usd = usd_per_hour * hours_per_month;
  if (usd_per_hour > 0) a.cost.per_million_output_tokens_usd = usd_per_million_tokens(usd_per_hour, a.output_tokens_per_s);

  // The explanation, part by part.
  const StepParts& st = r.typical_step;
  // The pool as the engine sizes it: a share of the device (vLLM; SGLang's share holds the weights
  // too), a share of what the weights and activations leave (TensorRT-LLM, LMDeploy), or the
  // context the person set (llama-server, Ollama).
  const bool slots = engine.slots > 0;
  const bool of_free = engine.memory_basis == ServeEngineProfile::MemoryBasis::free_after_weights;
  const bool set = !slots && engine.kv_cache_tokens > 0;  // a size given in tokens (serve.kv_cache_tokens)
  Message pool_line(slots  ? "serve.explain.kv_capacity_context"
                    : set  ? "serve.explain.kv_capacity_set"
                    : of_free ? "serve.explain.kv_capacity_free"
                              : "serve.explain.kv_capacity");
  if (set) pool_line.grouped("given", engine.kv_cache_tokens);
  pool_line.bytes("pool", cap.pool_bytes)
      .bytes("device", cap.device_bytes)
      .decimal("fraction", engine.memory_fraction, 2)
      .bytes("weights", cap.weights_bytes)
      .bytes("reserved", engine.engine == ServeEngine::sglang ? 0 : cap.reserved_bytes)
      .grouped("per_token", static_cast<std::int64_t>(std::llround(sequence_kv_bytes(step, sequence_tokens) / static_cast<double>(sequence_tokens))))
      .grouped("tokens", cap.kv_capacity_tokens);
  a.explain.push_back({"kv_capacity", std::move(pool_line)});
  a.explain.push_back({"max_concurrency", Message("serve.explain.max_concurrency")
                                              .grouped("tokens", cap.kv_capacity_tokens)
                                              .grouped("sequence", sequence_tokens)
                                              .grouped("max_num_seqs", engine.max_num_seqs)
                                              .grouped("sequences", cap.max_concurrency)});
  a.explain.push_back({"step", Message("serve.explain.step")
                                   .decimal("batch", r.steady_batch, 1)
                                   .decimal("weights_ms", st.weights_s * 1e3, 2)
                                   .decimal("kv_ms", st.kv_read_s * 1e3, 2)
                                   .decimal("compute_ms", st.compute_s * 1e3, 2)
                                   .decimal("activations_ms", st.activations_s * 1e3, 2)
                                   .decimal("launch_ms", st.launch_s * 1e3, 2)
                                   .decimal("communication_ms", st.communication_s * 1e3, 2)
                                   .decimal("overhead_ms", st.engine_overhead_s * 1e3, 2)
                                   .decimal("total_ms", st.total_s * 1e3, 2)});
  a.explain.push_back({"throughput", Message("serve.explain.throughput")
                                         .grouped("tokens", r.output_tokens)
                                         .decimal("duration", r.duration_s, 2)
                                         .integer("replicas", replicas)
                                         .decimal("tokens_per_s", a.output_tokens_per_s, 0)});
  if (engine.front_end_s > 0) {
    a.explain.push_back({"front_end", Message("serve.explain.front_end").decimal("front_end_ms", engine.front_end_s * 1e3, 2)});
  }
  a.explain.push_back({"latency", Message("serve.explain.latency")
                                      .integer("percentile", s.slo.percentile)
                                      .decimal("ttft_ms", r.ttft_s.at(s.slo.percentile) * 1e3, 0)
                                      .decimal("tpot_ms", r.tpot_s.at(s.slo.percentile) * 1e3, 1)
                                      .decimal("per_user", a.per_user_output_tokens_per_s, 1)});
  if (a.energy.watts > 0) {
    a.explain.push_back({"energy", Message("serve.explain.energy")
                                       .decimal("watts", a.energy.watts, 0)
                                       .decimal("tokens_per_s", a.output_tokens_per_s, 0)
                                       .decimal("joules", a.energy.joules_per_output_token, 3)});
  }
  if (a.cost.basis != "none") {
    a.explain.push_back({"cost", Message(a.cost.basis == "rented" ? "serve.explain.cost_rented" : "serve.explain.cost_owned")
                                     .integer("gpus", a.gpus_needed)
                                     .usd("per_hour", usd_per_hour, 2)
                                     .decimal("hours", hours_per_month, 0)
                                     .usd("per_month", a.cost.per_month_usd, 0)
                                     .usd("per_million", a.cost.per_million_output_tokens_usd, 3)});
  }
  a.summary = (!a.slo_given ? Message("serve.summary.serves") : a.meets_slo ? Message("serve.summary.meets") : Message("serve.summary.misses"))
                  .integer("gpus", a.gpus_needed)
                  .text("gpu", hw.name)
                  .decimal("tokens_per_s", a.output_tokens_per_s, 0)
                  .decimal("ttft_ms", r.ttft_s.at(s.slo.percentile) * 1e3, 0)
                  .decimal("per_user", a.per_user_output_tokens_per_s, 1);
  return a;
}

}  // namespace llmsizer
