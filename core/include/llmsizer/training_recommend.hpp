// SPDX-License-Identifier: MIT
#pragma once
/// The recommendation for a training request: every catalog option that can train it — one GPU,
/// several of the same card (data parallel, ZeRO-3 when replicas do not fit), a cloud instance with
/// its own GPUs, an Apple or AMD machine's unified memory — with the memory per GPU, the verdict,
/// its price per hour and per million tokens, and with the dataset size the time and cost of an
/// epoch and of the run; ranked by the person's goal (rented instances for the cloud goals:
/// ranked_for_training); the nearest misses with the fixes that make them fit (fixes.hpp), each
/// re-estimated; and the buy-or-rent table of a run (buy_or_rent.hpp).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "llmsizer/buy_or_rent.hpp"
#include "llmsizer/cost.hpp"
#include "llmsizer/fixes.hpp"
#include "llmsizer/hardware.hpp"
#include "llmsizer/recommend.hpp"
#include "llmsizer/training.hpp"

namespace llmsizer {

struct TrainingOption {
  const HardwareSpec* hardware = nullptr;
  int gpus = 1;
  int zero_stage = 0;
  std::int64_t device_bytes = 0;      ///< per GPU, as the driver sees it
  std::int64_t usable_bytes = 0;      ///< per GPU
  std::int64_t headroom_bytes = 0;
  std::int64_t margin_bytes = 0;
  std::int64_t memory_option_bytes = 0;  ///< unified memory: the configuration to buy
  Verdict verdict = Verdict::no_fit;
  double tokens_per_s = 0;            ///< 0: the GPU's compute is unknown
  double hours = 0;                   ///< one epoch; 0 when unknown (no dataset size, or no compute figure)
  /// Per hour (rent, or own: amortisation + power + upkeep) and per million tokens trained.
  OptionCost cost;
  double usd = 0;                     ///< one epoch; 0 when unknown
  double run_hours = 0;               ///< the run: epochs × hours
  double run_usd = 0;                 ///< the run: epochs × usd
  std::vector<Fix> fixes;             ///< near misses (and tight fits): what makes it fit comfortably
  Message reason;
};

struct TrainingRecommendation {
  Goal goal = Goal::best_value;
  /// The request's `training.dataset_tokens`; 0: not given, and then no option has a time or a total
  /// cost (each still has its price per hour and per million tokens): nothing is assumed.
  double epoch_tokens = 0;
  double epochs = 1;
  std::vector<TrainingOption> options;      ///< every option ranked for the goal that fits, best first (at most max_options)
  std::size_t options_total = 0;            ///< how many fit, listed or not
  std::vector<TrainingOption> near_misses;  ///< closest misses first, with fixes
  TrainingCostComparison costs;             ///< buy or rent: a run rented, or an owned machine's share of it
};

/** Whether `goal` ranks `hw` for training. The cloud goals (cheapest, best value, fastest) rank the
 *  rented instances only: a run is priced as rented hardware is billed, by the hour, while an owned
 *  card's amortised share is not a price one can pay for a single run without buying the card first
 *  (it is the buy-or-rent table's question: TrainingRecommendation::costs). "local" ranks what one
 *  can own; "laptop" the laptops. */
bool ranked_for_training(const HardwareSpec& hw, Goal goal);

/** Ranks every GPU, laptop and instance of `catalog` for training `model` with `settings` (those
 *  ranked_for_training for `goal`), and prices a run of every option that fits, rented or owned, for
 *  the buy-or-rent table at `usage` hours a day. */
TrainingRecommendation recommend_training(const ModelSpec& model, const TrainingSettings& settings, const std::vector<HardwareSpec>& catalog,
                                          Goal goal, const OwnershipCosts& costs, std::size_t max_near_misses = kNearMisses,
                                          std::size_t max_options = SIZE_MAX, const UsagePattern& usage = UsagePattern{});

}  // namespace llmsizer
