// SPDX-License-Identifier: MIT
#pragma once
/// Cost: renting (an instance's $/hour) or owning (purchase price amortised over a lifetime, plus
/// power and upkeep), $ per million tokens at an estimated throughput, and the buy-vs-rent
/// break-even in hours of use. Pure arithmetic.
#include <string>

namespace llmsizer {

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
};

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
