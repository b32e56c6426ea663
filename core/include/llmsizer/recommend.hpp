// SPDX-License-Identifier: MIT
#pragma once
/// The recommendation: every catalog option that fits a request, with its speed and cost, ranked by
/// the person's goal and explained in one sentence; and the nearest options that do not fit, with
/// what would make them fit (a smaller weight format, a shorter context, partial offload).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "llmsizer/cost.hpp"
#include "llmsizer/hardware.hpp"
#include "llmsizer/throughput.hpp"

namespace llmsizer {

/// Inference's rules below; training ranks by its own (training_recommend.cpp: rank_value).
enum class Goal {
  cheapest,    ///< lowest $ per hour (rent, or own: amortised purchase + power + upkeep)
  fastest,     ///< highest decode tokens/s over the batch
  best_value,  ///< lowest $ per million tokens
  local,       ///< own hardware only (GPUs, CPUs, laptops), best value first
  laptop,      ///< laptops only, fastest first
};
const char* goal_id(Goal goal);
/// Parses a request's `goal`; false when unknown.
bool parse_goal(const std::string& text, Goal& goal);

/// What an option costs, when a price is known.
struct OptionCost {
  bool known = false;
  bool rented = false;
  double usd_per_hour = 0;              ///< rent, or owned: amortisation + power + upkeep
  double usd_per_million_tokens = 0;    ///< at the estimated decode throughput of the batch
  double purchase_usd = 0;              ///< owned: the devices it needs and the box around them
  double hardware_usd = 0;              ///< owned: the devices (GPUs × price, the laptop, the CPU)
  double rest_of_box_usd = 0;           ///< owned desktop: the PC around them (kRestOfBoxUsd, RAM)
  double power_w = 0;                   ///< owned: drawn from the wall at full load
  double power_usd_per_hour = 0;        ///< owned: electricity
  std::string break_even_instance;      ///< owned GPU: the cheapest instance with that GPU
  double break_even_hours = 0;          ///< hours of use after which buying beats renting it (-1: never)
};

/** What owning `hw` with `gpus` devices costs up front and draws from the wall (not known: 0):
 *  - a desktop GPU: price × devices plus the rest of the box (costs.rest_of_box_usd); power:
 *    (board power × devices + kRestOfBoxPowerW) / kPsuEfficiency;
 *  - a desktop CPU: its price plus the box without its own CPU, plus RAM beyond the box's 32 GiB
 *    for `host_bytes_needed`; power: (TDP + box − box CPU) / kPsuEfficiency;
 *  - a laptop: the price of `memory_option_bytes` (Apple) or its one price; power: its `power_w`.
 *  Server CPUs and GPUs without a list price are not priced (their platform is not catalogued). */
struct Purchase {
  double hardware_usd = 0;
  double rest_of_box_usd = 0;
  double power_w = 0;
  double total_usd() const { return hardware_usd + rest_of_box_usd; }
  bool known() const { return hardware_usd > 0; }
};
Purchase purchase_of(const HardwareSpec& hw, int gpus, std::int64_t memory_option_bytes, std::int64_t host_bytes_needed,
                     const OwnershipCosts& costs);

/** Cost of running on `hw` with `gpus` devices (0: the CPU) at `tokens_per_s_total`. Rented:
 *  the instance's $/hour. Owned: the purchase (purchase_of) amortised over the lifetime, plus its
 *  wall power × utilisation × electricity × PUE, plus upkeep; and the break-even against the
 *  cheapest instance in `catalog` that has the same GPU and enough of them. */
OptionCost option_cost(const HardwareSpec& hw, int gpus, double tokens_per_s_total, const OwnershipCosts& costs,
                       const std::vector<HardwareSpec>& catalog, std::int64_t memory_option_bytes = 0,
                       std::int64_t host_bytes_needed = 0);

struct HardwareOption {
  const HardwareSpec* hardware = nullptr;
  FitResult fit;
  Throughput speed;
  OptionCost cost;
  Message reason;  ///< "fits with 3.2 GB to spare at 8k context, ~41 tokens/s, $0.52/h"
};

struct NearMiss {
  const HardwareSpec* hardware = nullptr;
  FitResult fit;
  std::vector<Message> fixes;  ///< what would make it fit, one sentence each
  Message reason;
};

struct CostComparison;  // buy_or_rent.hpp

struct Recommendation {
  Goal goal = Goal::best_value;
  std::vector<HardwareOption> options;   ///< every option that fits, best first (at most max_options)
  std::size_t options_total = 0;         ///< how many fit, listed or not
  std::vector<NearMiss> near_misses;     ///< closest misses first
  std::shared_ptr<const CostComparison> costs;  ///< buy, rent or use what you have (buy_or_rent.hpp)
};

/** One option of the catalog for the request: its fit (the device count an instance has, or the
 *  fewest of a card that hold it), speed, cost and one sentence; `fit.fits` false when it does not fit. */
HardwareOption evaluate_option(const MemoryByDevices& memory, const HardwareSpec& hw, const OwnershipCosts& costs,
                               const std::vector<HardwareSpec>& catalog);

/** evaluate_option for the entries of one catalog, each made on first use and kept: a recommendation
 *  and its cost table (buy_or_rent.hpp) ask for the same entries, and evaluating an entry twice was
 *  a large part of a whole-catalog recommendation's time.
 *  Its options have no `reason`: recommend_hardware writes the sentence of the options it lists,
 *  the cost table says none, and writing one per catalog entry was a fifth of the evaluations.
 *  The rented instances are indexed by their GPU once, for every owned GPU's break-even (a scan
 *  of the whole catalog per GPU grew with the square of the catalog).
 *  `memory`, `catalog` and `costs` must outlive it. */
class CatalogOptions {
 public:
  CatalogOptions(const MemoryByDevices& memory, const std::vector<HardwareSpec>& catalog, const OwnershipCosts& costs);
  // It keeps references: a temporary would dangle (as MemoryByDevices refuses a temporary model).
  CatalogOptions(MemoryByDevices&&, const std::vector<HardwareSpec>&, const OwnershipCosts&) = delete;
  CatalogOptions(const MemoryByDevices&, std::vector<HardwareSpec>&&, const OwnershipCosts&) = delete;
  CatalogOptions(const MemoryByDevices&, const std::vector<HardwareSpec>&, OwnershipCosts&&) = delete;
  /// evaluate_option(memory, catalog[index], costs, catalog) without its reason.
  const HardwareOption& at(std::size_t index) const;
  const MemoryByDevices& memory() const { return memory_; }
  const std::vector<HardwareSpec>& catalog() const { return catalog_; }
  const OwnershipCosts& costs() const { return costs_; }

 private:
  const MemoryByDevices& memory_;
  const std::vector<HardwareSpec>& catalog_;
  const OwnershipCosts& costs_;
  std::vector<const HardwareSpec*> rentals_;  ///< the catalog's rented instances by GPU id, in catalog order within one
  mutable std::vector<std::unique_ptr<const HardwareOption>> options_;
};

/// Near misses a recommendation lists by default (the closest first).
constexpr std::size_t kNearMisses = 5;

/** One sentence on a fitting option, built from its numbers. */
Message option_reason(const HardwareOption& option, const InferenceSettings& settings);

/** Ranks every entry of `catalog` for the request. Each entry's fit uses the memory estimates of
 *  `memory` (one per device count), so the whole catalog costs a handful of estimates. */
Recommendation recommend_hardware(const MemoryByDevices& memory, const std::vector<HardwareSpec>& catalog, Goal goal,
                                  const OwnershipCosts& costs, std::size_t max_near_misses = kNearMisses);
/// The same over options already evaluated (and kept for the cost table); only the best
/// `max_options` of those that fit are listed, with their sentence (the rest only counted).
Recommendation recommend_hardware(const CatalogOptions& options, Goal goal, std::size_t max_near_misses = kNearMisses,
                                  std::size_t max_options = SIZE_MAX);

}  // namespace llmsizer
