// SPDX-License-Identifier: MIT
#pragma once
/// Cost: renting (an instance's $/hour) or owning (purchase price amortised over a lifetime, plus
/// power and upkeep), $ per million tokens at an estimated throughput, and the buy-vs-rent
/// break-even in hours of use. Pure arithmetic.
///
/// The source article's cost factors (seed: "CPUとGPUのコスト"): the purchase (a GPU needs "the server,
/// video memory, storage and other supporting hardware" around it: the rest of the box below), the
/// power it draws while running, the cooling that power needs (PUE), and upkeep ("使用と保守").
#include <cstdint>
#include <string>

namespace llmsizer {

/// The rest of a desktop PC around one GPU, itemised by ownrig.com "Budget Home AI Server" (2026):
/// Ryzen 5 7600 $179, B650M board $109, 32 GB DDR5-5200 $69, NVMe + storage $129, 550 W 80 PLUS Gold
/// PSU $79, case $99, cooler $49 = $713. A box for two to four cards needs a larger PSU and board:
/// not priced here (an underestimate for multi-GPU builds).
constexpr double kRestOfBoxUsd = 713.0;
/** How a person would own and run hardware (request `cost`). Defaults:
 *  - lifetime_years 3: a common depreciation period for GPUs and PCs (hyperscalers book servers
 *    over 5-6 years; consumer GPUs are replaced sooner);
 *  - hours_per_day 24: an always-on server (set 8 for a workstation used during the day);
 *  - electricity_usd_per_kwh 0.17: US average residential price 2024, 16.5 ¢/kWh (EIA, Electric
 *    Power Monthly, Table 5.6.A);
 *  - pue 1.0: no separate cooling at home; a datacenter averages 1.56 (Uptime Institute Global
 *    Data Center Survey 2024);
 *  - utilization 1.0: share of the powered hours the device runs at its board power (TDP);
 *  - upkeep_usd_per_year 0: repairs, rack space, administration. */
struct OwnershipCosts {
  double lifetime_years = 3.0;
  double hours_per_day = 24.0;
  double electricity_usd_per_kwh = 0.17;
  double pue = 1.0;
  double utilization = 1.0;
  double upkeep_usd_per_year = 0.0;
  /// What a desktop GPU needs around it (request `cost.rest_of_box_usd`; 0: the person has the PC).
  double rest_of_box_usd = kRestOfBoxUsd;
};

/// Of that, its own CPU (Ryzen 5 7600, $179) and RAM (32 GB for $69): a CPU-only desktop swaps the
/// CPU for the one chosen and buys RAM beyond 32 GiB at the same $69 per 32 GB.
constexpr double kRestOfBoxCpuUsd = 179.0;
constexpr double kRestOfBoxRamUsd = 69.0;
constexpr std::int64_t kRestOfBoxRamBytes = 32LL << 30;
/// Power of the rest of the box under load: the same build draws ~250 W with its 160 W GPU (RTX
/// 4060 Ti 16 GB) busy (ownrig.com): 90 W, of which the CPU's 65 W TDP (Ryzen 5 7600).
constexpr double kRestOfBoxPowerW = 90.0;
constexpr double kRestOfBoxCpuPowerW = 65.0;
/// Power supply efficiency, DC out / AC in: 80 PLUS Gold requires 87 % at 20 % and 100 % load and
/// 90 % at 50 % load (80 PLUS program, 115 V internal non-redundant); 0.90.
constexpr double kPsuEfficiency = 0.90;
/// Days in an average month: 365 / 12.
constexpr double kDaysPerMonth = 365.0 / 12.0;

struct OwnedHourlyCost {
  double amortization_usd_per_hour = 0;  ///< purchase / (lifetime_years × 365 × hours_per_day)
  double power_usd_per_hour = 0;         ///< power_w / 1000 × utilization × electricity × pue
  double upkeep_usd_per_hour = 0;        ///< upkeep / (365 × hours_per_day)
  double total_usd_per_hour = 0;
};

/** Hourly cost of owning hardware bought for `purchase_usd` that draws `power_w` at full load. */
OwnedHourlyCost owned_hourly_cost(double purchase_usd, double power_w, const OwnershipCosts& costs);

/** $ per million tokens at `usd_per_hour` and `tokens_per_s`: usd_per_hour / (tokens_per_s × 3600) × 1e6.
 *  0 when the throughput is unknown. */
double usd_per_million_tokens(double usd_per_hour, double tokens_per_s);

/** Hours of use after which buying beats renting: the purchase price over the hourly saving
 *  (rent − running cost of owned hardware, i.e. power and upkeep). Negative when renting is
 *  cheaper per hour than the electricity alone (never breaks even). */
double break_even_hours(double purchase_usd, double rent_usd_per_hour, double owned_running_usd_per_hour);

}  // namespace llmsizer
