// SPDX-License-Identifier: MIT
#pragma once
/// Buy, rent or use what you have: for one inference request and a usage pattern (hours a day, or
/// output tokens a day), what each kind of option costs a month and per million tokens — a laptop at
/// the price of the memory it needs, a desktop GPU build (the cards and the rest of the box), a
/// CPU-only desktop, a cloud instance by the hour, and the machine the person already has — and
/// after how many months buying beats renting (within the machine's life, else never). For training,
/// the same question per run: what one run costs rented, against the share of it of a machine
/// bought for it (compare_training_costs). The source article's cost factors (purchase, power,
/// cooling, upkeep: cost.hpp) priced at the estimated speed.
#include <cstdint>
#include <optional>
#include <vector>

#include "llmsizer/cost.hpp"
#include "llmsizer/hardware.hpp"
#include "llmsizer/message.hpp"
#include "llmsizer/recommend.hpp"

namespace llmsizer {

/// How much the work runs (request `usage`): hours a day, or output tokens a day (then each option
/// runs as long as its speed needs). Neither given: 8 hours a day (a working day).
struct UsagePattern {
  double hours_per_day = 0;
  double tokens_per_day = 0;
};
constexpr double kDefaultUsageHoursPerDay = 8.0;

enum class CostKind { mine, laptop, desktop_gpu, desktop_cpu, cloud };
const char* cost_kind_id(CostKind kind);

/// One option's numbers at the usage pattern. Money per month uses kDaysPerMonth.
struct CostNumbers {
  CostKind kind = CostKind::cloud;
  double tokens_per_s = 0;            ///< decode, all sequences of the batch
  double hours_per_day = 0;           ///< of work (may exceed 24: then `machines` > 1)
  double tokens_per_day = 0;
  int machines = 1;                   ///< owned: copies needed to do a day's work in a day
  double upfront_usd = 0;             ///< owned: purchase × machines (mine: 0, already paid)
  double amortization_usd_per_month = 0;
  double power_usd_per_month = 0;     ///< wall power × utilisation × electricity × PUE × hours
  double upkeep_usd_per_month = 0;
  double rent_usd_per_month = 0;      ///< cloud: $/hour × hours
  double usd_per_month = 0;
  double usd_per_hour = 0;            ///< per hour of work
  double usd_per_million_tokens = 0;
  /// Owned: what renting the reference instance (CostComparison::rent_reference) costs a month for
  /// this option's tokens (reference $/M tokens × its tokens a month); 0: no reference.
  double rent_same_work_usd_per_month = 0;
  /// Owned: months after which buying costs less than that rent: the purchase over (that rent −
  /// this option's power and upkeep a month). -1: never within lifetime_years (or never at all:
  /// the rent is no more than the power and upkeep); 0: no reference.
  double break_even_months = 0;
};

/// One row of the table: an option's numbers, the option, and the numbers explained. Every priced
/// option of the catalog is priced (CostNumbers) to choose the rows; only the rows kept carry their
/// option and explanation (a ten-fold catalog's table moved 1,230 of these a tenth of its time).
struct CostRow : CostNumbers {
  HardwareOption option;              ///< fit, speed, the option's own cost (cost.hpp rules)
  /// Each number above as a formula with its numbers (hours, tokens, rent or purchase, amortisation,
  /// power, upkeep, $/M tokens, break-even), in that order.
  std::vector<Message> explain;
};

struct CostComparison {
  UsagePattern usage;                 ///< as asked (hours or tokens)
  std::vector<CostRow> rows;          ///< mine first, then per kind the cheapest per million tokens
  int rent_reference = -1;            ///< index in rows of the cloud instance that costs least per million tokens
  Message summary;                    ///< the answer in one sentence
};

/// Rows per kind in the comparison (the cheapest per million tokens).
constexpr std::size_t kCostRowsPerKind = 3;

/** The comparison for the request whose memory is `memory`, over `catalog` and `mine` (the person's
 *  own machine, if given). Options that do not fit, or have no price, are left out. */
CostComparison compare_costs(const MemoryByDevices& memory, const std::vector<HardwareSpec>& catalog,
                             const HardwareSpec* mine, const UsagePattern& usage, const OwnershipCosts& costs);
/// The same over catalog options already evaluated (recommend.hpp: those of the recommendation).
CostComparison compare_costs(const CatalogOptions& options, const HardwareSpec* mine, const UsagePattern& usage);

/// Training: an option that trains the request (training_recommend.hpp), as the cost table needs it.
struct TrainingCostCandidate {
  const HardwareSpec* hardware = nullptr;
  int gpus = 1;
  std::int64_t memory_option_bytes = 0;  ///< unified memory: the configuration to buy
  double tokens_per_s = 0;               ///< trained tokens a second, all GPUs
};

/// One row of training's table. A run is the dataset × epochs; without a dataset size the run is
/// unknown and the row stands per million tokens trained (nothing is assumed).
struct TrainingCostRow {
  CostKind kind = CostKind::cloud;
  const HardwareSpec* hardware = nullptr;
  int gpus = 1;
  std::int64_t memory_option_bytes = 0;
  double tokens_per_s = 0;
  double upfront_usd = 0;                  ///< owned: the purchase (purchase_of)
  double amortization_usd_per_hour = 0;    ///< owned: purchase ÷ (lifetime_years × 365 × hours a day)
  double running_usd_per_hour = 0;         ///< owned: power and upkeep
  double usd_per_hour = 0;                 ///< rent, or owned: amortisation + running (its share)
  double usd_per_million_tokens = 0;       ///< usd_per_hour ÷ (tokens_per_s × 3,600) × 10^6
  double run_hours = 0;                    ///< 0: the run's size is unknown
  double run_usd = 0;                      ///< rent, or the owned machine's share of the run
  /// Owned: tokens trained after which buying costs less than renting the reference (in millions);
  /// -1: never within lifetime_years at the hours a day (or never at all); 0: no reference.
  double break_even_million_tokens = 0;
  double break_even_runs = 0;              ///< break_even_million_tokens over the run's; 0: unknown or never
  std::vector<Message> explain;            ///< each number as a formula with its numbers
};

struct TrainingCostComparison {
  double run_tokens = 0;                   ///< dataset_tokens × epochs; 0: not given
  double hours_per_day = 0;                ///< of training on an owned machine (usage; default 8)
  double lifetime_years = 0;
  std::vector<TrainingCostRow> rows;       ///< per kind, the cheapest per token: laptops, desktop GPUs, cloud
  int rent_reference = -1;                 ///< the instance that trains a token for least: the cheapest run
  Message summary;
};

/** Buy or rent for training: per kind (laptop, desktop PC with GPUs, cloud instance) the options of
 *  `candidates` that train a token for least, each priced per hour, per million tokens and per run
 *  (`run_tokens`, 0: unknown); an owned machine's share is its purchase spread over its life at
 *  `usage` hours a day, plus power and upkeep; the break-even against renting the reference. */
TrainingCostComparison compare_training_costs(const std::vector<TrainingCostCandidate>& candidates, double run_tokens,
                                              const UsagePattern& usage, const OwnershipCosts& costs);

}  // namespace llmsizer
