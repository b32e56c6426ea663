// SPDX-License-Identifier: MIT
#include "llmsizer/training_recommend.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include "stable_order.hpp"

namespace llmsizer {
namespace {

bool can_train(const HardwareSpec& hw) { return !hw.is_cpu() && hw.unsupported.id.empty(); }

/// The counts worth pricing: an instance's own, one on a laptop or unified memory, and 1, 2, 4, 8
/// of a card bought by the piece (up to what one machine takes: max_devices).
std::vector<int> device_counts(const HardwareSpec& hw) {
  if (hw.kind == HardwareKind::instance) return {std::max(1, hw.device_count)};
  std::vector<int> counts;
  for (int n = 1; n <= std::max(1, max_devices(hw)); n *= 2) counts.push_back(n);
  return counts;
}

/// The training memory per GPU at each (GPUs, ZeRO stage): it does not depend on the hardware, so
/// the catalog costs a handful of estimates.
class MemoryByLayout {
 public:
  MemoryByLayout(const ModelSpec& model, const TrainingSettings& settings) : model_(model), settings_(settings) {}
  std::int64_t device_bytes(int gpus, int zero_stage) {
    const auto key = std::make_pair(gpus, zero_stage);
    auto it = cache_.find(key);
    if (it != cache_.end()) return it->second;
    const std::int64_t bytes = estimate_training(model_, with(gpus, zero_stage), EstimateDetail::bytes_only).memory.device_bytes;
    cache_.emplace(key, bytes);
    return bytes;
  }
  TrainingSettings with(int gpus, int zero_stage) const {
    TrainingSettings s = settings_;
    s.gpus = gpus;
    s.zero_stage = zero_stage;
    return s;
  }

 private:
  const ModelSpec& model_;
  TrainingSettings settings_;
  std::map<std::pair<int, int>, std::int64_t> cache_;
};

/// Usable memory per GPU; unified memory: the smallest configuration that fits comfortably, else
/// the smallest that fits, else the largest (`option` receives it).
std::int64_t usable_for(const HardwareSpec& hw, std::int64_t required, std::int64_t& option) {
  option = 0;
  if (!hw.unified_memory) return usable_device_bytes(hw, hw.device_memory_bytes);
  std::vector<std::int64_t> configs = hw.memory_options_bytes;
  if (configs.empty()) configs.push_back(hw.device_memory_bytes);
  std::sort(configs.begin(), configs.end());
  std::int64_t any = 0;
  for (std::int64_t c : configs) {
    const std::int64_t usable = usable_device_bytes(hw, c);
    if (usable - required >= fit_margin_bytes(usable)) {
      option = c;
      return usable;
    }
    if (any == 0 && usable >= required) any = c;
  }
  option = any > 0 ? any : configs.back();
  return usable_device_bytes(hw, option);
}

/// The option on `hw` with `gpus`: replicas (the request's ZeRO stage) first, ZeRO-3 when they do not fit.
TrainingOption evaluate(const HardwareSpec& hw, int gpus, MemoryByLayout& memory, const TrainingSettings& settings) {
  TrainingOption o;
  o.hardware = &hw;
  o.gpus = gpus;
  o.zero_stage = settings.zero_stage;
  o.device_bytes = memory.device_bytes(gpus, o.zero_stage);
  o.usable_bytes = usable_for(hw, o.device_bytes, o.memory_option_bytes);
  if (gpus > 1 && o.zero_stage < 3 && o.device_bytes + fit_margin_bytes(o.usable_bytes) > o.usable_bytes) {
    o.zero_stage = 3;
    o.device_bytes = memory.device_bytes(gpus, 3);
    o.usable_bytes = usable_for(hw, o.device_bytes, o.memory_option_bytes);
  }
  o.headroom_bytes = o.usable_bytes - o.device_bytes;
  o.margin_bytes = fit_margin_bytes(o.usable_bytes);
  o.verdict = memory_verdict(o.headroom_bytes, o.margin_bytes);
  return o;
}

/** The ranking key, lowest first. Every option trains the same tokens, so keys per million tokens
 *  order the runs as their totals do, with or without the dataset size:
 *  - fastest, laptop: the hours of a million tokens (the run's time);
 *  - cheapest: the price of a million tokens (the run's total cost);
 *  - best value: price × hours of a million tokens (the run's cost × its time): cheap and quick
 *    together, the product weighing a halving of either the same, as the energy-delay product does
 *    for processors (Gonzalez & Horowitz, "Energy dissipation in general purpose microprocessors",
 *    IEEE JSSC 31(9), 1996). A rule per token alone would order the runs as "cheapest" does, since
 *    every run trains the same tokens: eight GPUs that finish eight times sooner for the same money
 *    are the better value, and one that saves 10 % for ten times the wait is not;
 *  - local: the price of a million tokens of what one owns (its amortised share). */
double rank_value(const TrainingOption& o, Goal goal) {
  constexpr double kUnknown = 1e300;
  const double hours_per_million = o.tokens_per_s > 0 ? 1e6 / (o.tokens_per_s * 3600.0) : 0.0;
  const double usd_per_million = o.cost.known ? o.cost.usd_per_million_tokens : 0.0;
  switch (goal) {
    case Goal::fastest:
    case Goal::laptop: return hours_per_million > 0 ? hours_per_million : kUnknown;
    case Goal::cheapest:
    case Goal::local: return usd_per_million > 0 ? usd_per_million : kUnknown;
    case Goal::best_value: return usd_per_million > 0 && hours_per_million > 0 ? usd_per_million * hours_per_million : kUnknown;
  }
  return kUnknown;
}

}  // namespace

bool ranked_for_training(const HardwareSpec& hw, Goal goal) {
  if (!can_train(hw)) return false;
  switch (goal) {
    case Goal::cheapest:
    case Goal::best_value:
    case Goal::fastest: return hw.kind == HardwareKind::instance;
    case Goal::local: return hw.kind != HardwareKind::instance;
    case Goal::laptop: return hw.kind == HardwareKind::laptop;
  }
  return false;
}

TrainingRecommendation recommend_training(const ModelSpec& model, const TrainingSettings& settings, const std::vector<HardwareSpec>& catalog,
                                          Goal goal, const OwnershipCosts& costs, std::size_t max_near_misses,
                                          std::size_t max_options, const UsagePattern& usage) {
  TrainingRecommendation r;
  r.goal = goal;
  r.epoch_tokens = settings.dataset_tokens > 0 ? settings.dataset_tokens : 0.0;
  r.epochs = settings.epochs > 0 ? settings.epochs : 1.0;
  MemoryByLayout memory(model, settings);
  std::vector<TrainingOption> misses;
  // Every option that trains it is priced for the buy-or-rent table; the goal ranks some of them.
  std::vector<TrainingCostCandidate> priced;
  for (const HardwareSpec& hw : catalog) {
    if (!can_train(hw)) continue;
    const bool ranked = ranked_for_training(hw, goal);
    TrainingOption chosen;
    bool found = false;
    TrainingOption best_miss;
    for (int n : device_counts(hw)) {
      TrainingOption o = evaluate(hw, n, memory, settings);
      if (verdict_fits(o.verdict)) {
        // The fewest GPUs that fit: a tight fit says so, with its fixes (one of them more GPUs).
        chosen = std::move(o);
        found = true;
        break;
      } else if (!found && best_miss.hardware == nullptr) {
        best_miss = std::move(o);  // the fewest GPUs: what the fixes start from
      }
    }
    if (!found) {
      if (ranked) misses.push_back(std::move(best_miss));
      continue;
    }
    // Speed, and the time and cost of one epoch on the chosen count when the dataset size is given.
    TrainingSettings s = memory.with(chosen.gpus, chosen.zero_stage);
    s.dataset_tokens = r.epoch_tokens;
    s.epochs = 1;
    s.peak_tflops = hw.measured_tflops > 0 ? hw.measured_tflops : hw.matrix_tflops;
    const TrainingTime time = training_time(model, s);
    chosen.tokens_per_s = time.tokens_per_s;
    chosen.hours = time.hours;
    chosen.cost = option_cost(hw, chosen.gpus, chosen.tokens_per_s, costs, {}, chosen.memory_option_bytes);
    if (chosen.cost.known && chosen.hours > 0) chosen.usd = chosen.cost.usd_per_hour * chosen.hours;
    chosen.run_hours = chosen.hours * r.epochs;
    chosen.run_usd = chosen.usd * r.epochs;
    priced.push_back(TrainingCostCandidate{&hw, chosen.gpus, chosen.memory_option_bytes, chosen.tokens_per_s});
    if (!ranked) continue;
    if (chosen.verdict == Verdict::tight) {
      chosen.fixes = training_fixes(model, s, chosen.usable_bytes, hw.kind == HardwareKind::instance ? chosen.gpus : max_devices(hw));
      chosen.fixes.erase(std::remove_if(chosen.fixes.begin(), chosen.fixes.end(), [](const Fix& f) { return f.verdict != Verdict::comfortable; }),
                         chosen.fixes.end());
    }
    chosen.reason = Message(chosen.verdict == Verdict::comfortable ? "verdict.comfortable" : "verdict.tight")
                        .bytes("headroom", chosen.headroom_bytes).bytes("margin", chosen.margin_bytes);
    r.options.push_back(std::move(chosen));
  }
  stable_sort_by(r.options, [goal](const TrainingOption& a, const TrainingOption& b) {
    const double ka = rank_value(a, goal), kb = rank_value(b, goal);
    if (ka != kb) return ka < kb;
    return a.headroom_bytes > b.headroom_bytes;
  });
  r.options_total = r.options.size();
  if (r.options.size() > max_options) r.options.resize(max_options);
  auto shortfall = [](const TrainingOption& m) {
    return m.usable_bytes > 0 ? static_cast<double>(m.device_bytes) / static_cast<double>(m.usable_bytes) : 1e300;
  };
  stable_sort_by(misses, [&](const TrainingOption& a, const TrainingOption& b) { return shortfall(a) < shortfall(b); });
  if (misses.size() > max_near_misses) misses.resize(max_near_misses);
  for (TrainingOption& m : misses) {
    const TrainingSettings s = memory.with(m.gpus, m.zero_stage);
    m.fixes = training_fixes(model, s, m.usable_bytes, m.hardware->kind == HardwareKind::instance ? m.gpus : max_devices(*m.hardware));
    m.reason = Message("verdict.no_fit").bytes("short", -m.headroom_bytes);
  }
  r.near_misses = std::move(misses);
  r.costs = compare_training_costs(priced, r.epoch_tokens * r.epochs, usage, costs);
  return r;
}

}  // namespace llmsizer
