// SPDX-License-Identifier: MIT
#include "llmsizer/cost.hpp"

#include "arithmetic.hpp"

namespace llmsizer {

namespace {
constexpr double kDaysPerYear = 365.0;
using detail::kSecondsPerHour;
}  // namespace

OwnedHourlyCost owned_hourly_cost(double purchase_usd, double power_w, const OwnershipCosts& c) {
  OwnedHourlyCost r;
  const double hours_per_year = kDaysPerYear * c.hours_per_day;
  if (hours_per_year > 0 && c.lifetime_years > 0) r.amortization_usd_per_hour = purchase_usd / (c.lifetime_years * hours_per_year);
  r.power_usd_per_hour = power_w / 1000.0 * c.utilization * c.electricity_usd_per_kwh * c.pue;
  if (hours_per_year > 0) r.upkeep_usd_per_hour = c.upkeep_usd_per_year / hours_per_year;
  r.total_usd_per_hour = r.amortization_usd_per_hour + r.power_usd_per_hour + r.upkeep_usd_per_hour;
  return r;
}

double usd_per_million_tokens(double usd_per_hour, double tokens_per_s) {
  if (tokens_per_s <= 0) return 0;
  return usd_per_hour / (tokens_per_s * kSecondsPerHour) * 1e6;
}

double break_even_hours(double purchase_usd, double rent_usd_per_hour, double owned_running_usd_per_hour) {
  const double saving = rent_usd_per_hour - owned_running_usd_per_hour;
  if (saving <= 0) return -1.0;
  return purchase_usd / saving;
}

}  // namespace llmsizer
