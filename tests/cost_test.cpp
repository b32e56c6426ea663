// SPDX-License-Identifier: MIT
// Cost arithmetic by hand: ownership per hour, $ per million tokens, buy-vs-rent break-even.
#include <catch2/catch.hpp>

#include "llmsizer/cost.hpp"
#include "llmsizer/embedded_catalog.hpp"
#include "llmsizer/hardware.hpp"
#include "llmsizer/recommend.hpp"
#include "test_support.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace cost_test {

using namespace llmsizer;
using Catch::Matchers::WithinRel;

TEST_CASE("Owning an RTX 4090 costs amortisation plus power per hour", "[cost]") {
  // $1,599 over 3 years × 365 days × 24 h = 26,280 h → 0.0608447 $/h; 450 W × 1.0 × 0.17 $/kWh ×
  // PUE 1.0 = 0.0765 $/h; no upkeep.
  const OwnedHourlyCost c = owned_hourly_cost(1'599.0, 450.0, OwnershipCosts{});
  CHECK_THAT(c.amortization_usd_per_hour, WithinRel(1'599.0 / 26'280.0, 1e-12));
  CHECK_THAT(c.power_usd_per_hour, WithinRel(0.0765, 1e-12));
  CHECK_THAT(c.total_usd_per_hour, WithinRel(1'599.0 / 26'280.0 + 0.0765, 1e-12));
  // 8 hours a day, PUE 1.5, 50% utilisation, $100/year upkeep: 1599 / (3 × 365 × 8) + 0.45 × 0.5 ×
  // 0.17 × 1.5 + 100 / (365 × 8).
  OwnershipCosts office;
  office.hours_per_day = 8;
  office.pue = 1.5;
  office.utilization = 0.5;
  office.upkeep_usd_per_year = 100;
  const OwnedHourlyCost o = owned_hourly_cost(1'599.0, 450.0, office);
  CHECK_THAT(o.total_usd_per_hour, WithinRel(1'599.0 / 8'760.0 + 0.057375 + 100.0 / 2'920.0, 1e-12));
}

TEST_CASE("Dollars per million tokens follow from dollars per hour and tokens per second", "[cost]") {
  // $1.006/h at 100 tokens/s: 360,000 tokens per hour → 1.006 / 0.36 = $2.7944 per million.
  CHECK_THAT(usd_per_million_tokens(1.006, 100.0), WithinRel(1.006 / 0.36, 1e-12));
  CHECK(usd_per_million_tokens(1.0, 0.0) == 0.0);
}

TEST_CASE("Buying beats renting after the purchase price over the hourly saving", "[cost][break-even]") {
  // RTX 4090 at $1,599 against RunPod's $0.34/h, paying 0.0765 $/h of electricity when owned:
  // 1599 / (0.34 − 0.0765) = 6,068.3 h.
  CHECK_THAT(break_even_hours(1'599.0, 0.34, 0.0765), WithinRel(1'599.0 / 0.2635, 1e-12));
  CHECK(break_even_hours(1'599.0, 0.05, 0.0765) < 0);  // renting is cheaper than the power bill
  // Owned, the card comes in a PC: $1,599 + $713 for the rest of the box = $2,312, drawing
  // (450 + 90) W / 0.90 PSU efficiency = 600 W from the wall, 0.6 kW × $0.17 = $0.102/h (cost.hpp).
  const OptionCost c = option_cost(*find_hardware("nvidia-rtx-4090"), 1, 100.0, OwnershipCosts{}, hardware_catalog());
  CHECK(c.break_even_instance == "runpod-1x-nvidia-rtx-4090");
  CHECK_THAT(c.purchase_usd, WithinRel(2'312.0, 1e-12));
  CHECK_THAT(c.break_even_hours, WithinRel(2'312.0 / (0.34 - 0.102), 1e-12));  // 9,714.3 h
  // 3 years × 365 × 24 h = 26,280 h; 100 tokens/s = 0.36 M tokens an hour.
  CHECK_THAT(c.usd_per_million_tokens, WithinRel((2'312.0 / 26'280.0 + 0.102) / 0.36, 1e-12));
}

}  // namespace cost_test
