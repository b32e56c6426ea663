// SPDX-License-Identifier: MIT
#pragma once
/// The recommendation for a training request: every catalog option that can train it — one GPU,
/// several of the same card (data parallel, ZeRO-3 when replicas do not fit), a cloud instance with
/// its own GPUs, an Apple or AMD machine's unified memory — with the memory per GPU, the verdict,
/// the time of one epoch and what that epoch costs; ranked by the person's goal; and the nearest
/// misses with the fixes that make them fit (fixes.hpp), each re-estimated.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "llmsizer/cost.hpp"
#include "llmsizer/fixes.hpp"
#include "llmsizer/hardware.hpp"
#include "llmsizer/recommend.hpp"
#include "llmsizer/training.hpp"

namespace llmsizer {

/// Tokens of one epoch when the request gives no `training.dataset_tokens`: 10 million (the issue's
/// "time and cost of 10M tokens"), said in the answer.
constexpr double kDefaultEpochTokens = 10e6;

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
  double hours = 0;                   ///< one epoch; 0 when unknown
  OptionCost cost;                    ///< per hour (rent, or own: amortisation + power + upkeep)
  double usd = 0;                     ///< one epoch; 0 when unknown
  std::vector<Fix> fixes;             ///< near misses (and tight fits): what makes it fit comfortably
  Message reason;
};

struct TrainingRecommendation {
  Goal goal = Goal::best_value;
  double epoch_tokens = 0;
  bool epoch_tokens_assumed = false;   ///< the request gave no dataset size: kDefaultEpochTokens
  std::vector<TrainingOption> options;      ///< every option that fits, best first (at most max_options)
  std::size_t options_total = 0;            ///< how many fit, listed or not
  std::vector<TrainingOption> near_misses;  ///< closest misses first, with fixes
};

/** Ranks every GPU, laptop and instance of `catalog` for training `model` with `settings`. */
TrainingRecommendation recommend_training(const ModelSpec& model, const TrainingSettings& settings, const std::vector<HardwareSpec>& catalog,
                                          Goal goal, const OwnershipCosts& costs, std::size_t max_near_misses = kNearMisses,
                                          std::size_t max_options = SIZE_MAX);

}  // namespace llmsizer
