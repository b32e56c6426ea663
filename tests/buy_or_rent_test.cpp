// SPDX-License-Identifier: MIT
// Buy, rent or use what you have (buy_or_rent.hpp): what owning costs up front and at the wall, the
// monthly cost of each kind of option at a usage pattern, and the break-even against renting —
// against numbers worked out by hand from the catalog's prices and the sourced constants of cost.hpp.
#include <algorithm>
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "llmsizer/buy_or_rent.hpp"
#include "llmsizer/embedded_catalog.hpp"
#include "llmsizer/message_text.hpp"
#include "test_support.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace buy_or_rent_test {

using namespace llmsizer;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

namespace {

const HardwareSpec& entry(const std::string& id) {
  const auto& all = hardware_catalog();
  const auto it = std::find_if(all.begin(), all.end(), [&](const HardwareSpec& h) { return h.id == id; });
  if (it == all.end()) throw std::runtime_error("no catalog entry " + id);
  return *it;
}

const CostRow* row_of(const CostComparison& c, const std::string& id) {
  for (const auto& r : c.rows) {
    if (r.option.hardware->id == id) return &r;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("A desktop GPU is bought with the rest of the PC and draws its board power through the PSU", "[costs]") {
  // RTX 4090: $1,599 launch MSRP, 450 W board power (catalog); the rest of the box $713 (cost.hpp:
  // ownrig.com's itemised build); (450 + 90) W / 0.90 (80 PLUS Gold) = 600 W from the wall.
  const Purchase p = purchase_of(entry("nvidia-rtx-4090"), 1, 0, 0, OwnershipCosts{});
  CHECK_THAT(p.hardware_usd, WithinAbs(1599.0, 1e-9));
  CHECK_THAT(p.rest_of_box_usd, WithinAbs(713.0, 1e-9));
  CHECK_THAT(p.total_usd(), WithinAbs(2312.0, 1e-9));
  CHECK_THAT(p.power_w, WithinRel(600.0, 1e-9));
  // Two cards: 2 × $1,599 + $713 = $3,911; (2 × 450 + 90) / 0.9 = 1,100 W.
  const Purchase two = purchase_of(entry("nvidia-rtx-4090"), 2, 0, 0, OwnershipCosts{});
  CHECK_THAT(two.total_usd(), WithinAbs(3911.0, 1e-9));
  CHECK_THAT(two.power_w, WithinRel(1100.0, 1e-9));
  // A person who has the PC says so with rest_of_box_usd 0.
  OwnershipCosts have_pc;
  have_pc.rest_of_box_usd = 0;
  CHECK_THAT(purchase_of(entry("nvidia-rtx-4090"), 1, 0, 0, have_pc).total_usd(), WithinAbs(1599.0, 1e-9));
}

TEST_CASE("A laptop costs the list price of the memory it needs", "[costs]") {
  // 13-inch MacBook Air (M3) at launch: $1,099 (8 GB), $1,299 (16 GB), $1,499 (24 GB); 30 W adapter
  // (data/hardware/macbook-air-m3.json, Apple sources).
  const HardwareSpec& air = entry("macbook-air-m3");
  CHECK_THAT(purchase_of(air, 1, 16LL << 30, 0, OwnershipCosts{}).total_usd(), WithinAbs(1299.0, 1e-9));
  CHECK_THAT(purchase_of(air, 1, 24LL << 30, 0, OwnershipCosts{}).total_usd(), WithinAbs(1499.0, 1e-9));
  CHECK_THAT(purchase_of(air, 1, 16LL << 30, 0, OwnershipCosts{}).power_w, WithinAbs(30.0, 1e-9));
  CHECK(purchase_of(air, 1, 16LL << 30, 0, OwnershipCosts{}).rest_of_box_usd == 0);
}

TEST_CASE("A month of owning and of renting, and when buying pays for itself", "[costs]") {
  // Qwen2.5-7B at int4 (4 GB) fits one RTX 4090; the table over a catalog of the card and the
  // RunPod 4090 pod ($0.34/h), at 8 hours of work a day:
  //   rent:  $0.34 × 8 h × 30.4167 days = $82.73 a month;
  //   own:   $2,312 ÷ (3 years × 12) = $64.22 a month, power 0.600 kW × 8 h × 30.4167 × $0.17 = $24.82;
  //   break-even: $2,312 ÷ ($82.73 − $24.82) = 39.9 months: more than its 36-month life, so never
  //   (the summary used to say "pays for itself after 40 months" of a card spread over 36).
  const ModelSpec model = test_support::preset("qwen2.5-7b-instruct");
  const MemoryByDevices memory(model, test_support::inference("int4", 1'024, 1'024));
  const std::vector<HardwareSpec> catalog = {entry("nvidia-rtx-4090"), entry("runpod-1x-nvidia-rtx-4090")};
  UsagePattern usage;
  usage.hours_per_day = 8;
  const CostComparison c = compare_costs(memory, catalog, nullptr, usage, OwnershipCosts{});
  const CostRow* rent = row_of(c, "runpod-1x-nvidia-rtx-4090");
  const CostRow* own = row_of(c, "nvidia-rtx-4090");
  REQUIRE(rent != nullptr);
  REQUIRE(own != nullptr);
  CHECK(rent->kind == CostKind::cloud);
  CHECK(own->kind == CostKind::desktop_gpu);
  REQUIRE(c.rent_reference >= 0);
  CHECK(c.rows[static_cast<std::size_t>(c.rent_reference)].option.hardware->id == "runpod-1x-nvidia-rtx-4090");
  CHECK_THAT(rent->usd_per_month, WithinAbs(82.73, 0.01));
  CHECK_THAT(own->upfront_usd, WithinAbs(2312.0, 1e-6));
  CHECK_THAT(own->amortization_usd_per_month, WithinAbs(64.22, 0.01));
  CHECK_THAT(own->power_usd_per_month, WithinAbs(24.82, 0.01));
  CHECK_THAT(own->usd_per_month, WithinAbs(89.04, 0.01));
  // The same card at the same speed: renting its tokens is the reference's own month.
  CHECK_THAT(own->rent_same_work_usd_per_month, WithinAbs(82.73, 0.01));
  CHECK(own->break_even_months == -1.0);
  // Same card, same speed: the rent per hour of work is $0.34, owning $89.04 / 243.33 h = $0.366.
  CHECK_THAT(rent->usd_per_hour, WithinAbs(0.34, 1e-9));
  CHECK_THAT(own->usd_per_hour, WithinAbs(0.366, 0.001));
  // $/M tokens: the month over the month's tokens (the same speed on both: the same ratio as per hour).
  CHECK_THAT(own->usd_per_million_tokens / rent->usd_per_million_tokens, WithinRel(89.04 / 82.73, 1e-3));
  CHECK_THAT(rent->usd_per_million_tokens, WithinRel(0.34 / (rent->tokens_per_s * 3600) * 1e6, 1e-9));
  // Each number comes with its formula.
  const std::string text = edge::render_en(c.summary);
  CHECK_THAT(text, Catch::Matchers::Contains("At 8.0 hours of work a day:") &&
                       Catch::Matchers::Contains("does not pay for itself within its 3-year life against the $83 a month that renting its tokens costs.") &&
                       !Catch::Matchers::Contains("pays for itself after"));
  REQUIRE(own->explain.size() == 7);  // tokens, purchase, amortisation, power, upkeep, $/M, break-even
  CHECK(edge::render_en(own->explain[1]) == "purchase: ($1,599 for the devices + $713 for the rest of the PC) × 1 = $2,312");
  CHECK(edge::render_en(own->explain[2]) == "purchase spread over its life: $2,312 ÷ (3.0 years × 12) = $64.22 a month");
  CHECK(edge::render_en(own->explain[3]) ==
        "power and cooling: 600 W ÷ 1,000 × 1.00 of the time at full power × 8.00 h a day × 30.42 days × PUE 1.00 × $0.170 per kWh = $24.82 a month");
  CHECK_THAT(edge::render_en(own->explain[6]), Catch::Matchers::StartsWith("never pays for itself within its 36-month life against renting ") &&
                                                  Catch::Matchers::EndsWith(": $2,312 ÷ ($82.73 rent − $24.82 power and upkeep a month) = 39.9 months"));
  CHECK(edge::render_en(rent->explain[1]) == "rent: $0.34 an hour × 8.00 h a day × 30.42 days = $82.73 a month");

  // 12 hours a day: rent $0.34 × 12 × 30.4167 = $124.10, power 0.600 kW × 12 × 30.4167 × $0.17 =
  // $37.23; $2,312 ÷ ($124.10 − $37.23) = 26.6 months, within the life: the summary quotes the
  // purchase, the months and the rent they are counted against.
  usage.hours_per_day = 12;
  const CostComparison twelve = compare_costs(memory, catalog, nullptr, usage, OwnershipCosts{});
  const CostRow* own12 = row_of(twelve, "nvidia-rtx-4090");
  REQUIRE(own12 != nullptr);
  CHECK_THAT(own12->rent_same_work_usd_per_month, WithinAbs(124.10, 0.01));
  CHECK_THAT(own12->power_usd_per_month, WithinAbs(37.23, 0.01));
  CHECK_THAT(own12->break_even_months, WithinAbs(26.6, 0.05));
  CHECK_THAT(edge::render_en(twelve.summary), Catch::Matchers::Contains(
                 "buying NVIDIA GeForce RTX 4090 for $2,312 ($101 a month with the purchase spread over its life) pays for itself after 27 months "
                 "against the $124 a month that renting its tokens costs."));
  CHECK_THAT(edge::render_en(own12->explain[6]),
             Catch::Matchers::EndsWith("$124.10 a month: $2,312 ÷ ($124.10 rent − $37.23 power and upkeep a month) = 26.6 months, within its 36-month life"));
  // A 2-year life (24 months) is shorter than 26.6 months: never again.
  OwnershipCosts two_years;
  two_years.lifetime_years = 2;
  CHECK(row_of(compare_costs(memory, catalog, nullptr, usage, two_years), "nvidia-rtx-4090")->break_even_months == -1.0);
}

TEST_CASE("A box that makes a few tokens is compared with renting those tokens: never when the power costs more", "[costs]") {
  // Qwen2.5-7B at bf16 (15 GB) on a CPU-only desktop (Intel Core Ultra 9 285K: $589 + the $713 box
  // without its $179 CPU = $1,123; (125 W TDP + 90 − 65) ÷ 0.9 = 167 W) and a RunPod RTX 3090 pod.
  // The CPU makes a tenth of the pod's tokens an hour: at 8 hours a day the pod's whole month is
  // not the rent it saves; the pod's price for the CPU's tokens is:
  //   rent of the same work = pod $/M tokens × CPU tokens a day × 30.4167 / 10^6,
  // below the CPU box's own power bill, so it never pays for itself (break_even_months null).
  const ModelSpec model = test_support::preset("qwen2.5-7b-instruct");
  const MemoryByDevices memory(model, test_support::inference("bf16", 1'024, 1'024));
  const std::vector<HardwareSpec> catalog = {entry("intel-core-ultra-9-285k"), entry("runpod-1x-nvidia-rtx-3090")};
  UsagePattern usage;
  usage.hours_per_day = 8;
  const CostComparison c = compare_costs(memory, catalog, nullptr, usage, OwnershipCosts{});
  const CostRow* cpu = row_of(c, "intel-core-ultra-9-285k");
  const CostRow* pod = row_of(c, "runpod-1x-nvidia-rtx-3090");
  REQUIRE(cpu != nullptr);
  REQUIRE(pod != nullptr);
  CHECK(cpu->kind == CostKind::desktop_cpu);
  CHECK(cpu->tokens_per_s < pod->tokens_per_s / 5);
  const double same_work = pod->usd_per_million_tokens * cpu->tokens_per_day * (365.0 / 12.0) / 1e6;
  CHECK_THAT(cpu->rent_same_work_usd_per_month, WithinRel(same_work, 1e-9));
  CHECK(cpu->rent_same_work_usd_per_month < cpu->power_usd_per_month);
  CHECK(cpu->break_even_months == -1.0);
  CHECK_THAT(edge::render_en(cpu->explain.back()), Catch::Matchers::StartsWith("never breaks even against renting "));
  CHECK_THAT(edge::render_en(c.summary), Catch::Matchers::EndsWith("never costs less than renting."));
  // At int8 the same box makes a little more than its power bill in rent: $1,123 ÷ (≈$7.29 − $6.89)
  // ≈ 2,800 months, which the table used to show as its break-even. Past the 36-month life: never.
  const MemoryByDevices int8(model, test_support::inference("int8", 1'024, 1'024));
  const CostComparison c8 = compare_costs(int8, catalog, nullptr, usage, OwnershipCosts{});
  const CostRow* cpu8 = row_of(c8, "intel-core-ultra-9-285k");
  REQUIRE(cpu8 != nullptr);
  const double saving = cpu8->rent_same_work_usd_per_month - cpu8->power_usd_per_month;
  REQUIRE(saving > 0);
  CHECK(cpu8->upfront_usd / saving > 36 * 20);  // thousands of months
  CHECK(cpu8->break_even_months == -1.0);
  CHECK_THAT(edge::render_en(cpu8->explain.back()), Catch::Matchers::StartsWith("never pays for itself within its 36-month life against renting "));
  // Through the JSON edge: null, and the rent it is counted against beside it.
  const nlohmann::json r = nlohmann::json::parse(recommend(R"({"model":"qwen2.5-7b-instruct","weights":"bf16","usage":{"hours_per_day":8}})"));
  bool saw_cpu = false;
  for (const auto& row : r["costs"]["rows"]) {
    if (row["cost_kind"] != "desktop-cpu") continue;
    saw_cpu = true;
    CHECK(row["break_even_months"].is_null());
    CHECK(row["rent_same_work_usd_per_month"].get<double>() > 0);
  }
  CHECK(saw_cpu);
}

TEST_CASE("The cost request reads life, utilisation, PUE and upkeep, and names the field out of range", "[costs][api]") {
  // Each owned row: upkeep $120 a year = $10.00 a month; a 5-year life spreads the purchase over
  // 60 months; power at half the time × PUE 1.5 = 0.75 of full power all the time.
  const nlohmann::json r = nlohmann::json::parse(recommend(R"({"model":"qwen2.5-7b-instruct","weights":"int4","usage":{"hours_per_day":8},
    "cost":{"lifetime_years":5,"utilization":0.5,"pue":1.5,"upkeep_usd_per_year":120}})"));
  const nlohmann::json plain = nlohmann::json::parse(recommend(R"({"model":"qwen2.5-7b-instruct","weights":"int4","usage":{"hours_per_day":8}})"));
  REQUIRE(r.contains("costs"));
  int owned = 0;
  for (std::size_t i = 0; i < r["costs"]["rows"].size(); ++i) {
    const auto& row = r["costs"]["rows"][i];
    if (row["cost_kind"] != "desktop-gpu") continue;
    CAPTURE(row["id"]);
    const double upfront = row["upfront_usd"];
    // The same row at the defaults (3 years, full time, PUE 1, no upkeep): power × 0.75 and the rest.
    const auto same = std::find_if(plain["costs"]["rows"].begin(), plain["costs"]["rows"].end(), [&](const auto& x) { return x["id"] == row["id"]; });
    if (same == plain["costs"]["rows"].end()) continue;  // ranked among the three at one setting only
    const double power_default = (*same)["usd_per_month"].get<double>() - upfront / 36.0;
    CHECK_THAT(row["usd_per_month"].get<double>(), WithinAbs(upfront / 60.0 + 0.75 * power_default + 10.0, 0.02));
    CHECK(row["explain"][4] == "upkeep: $120 a year ÷ 12 = $10.00 a month");
    ++owned;
  }
  CHECK(owned > 0);
  for (const char* bad : {R"("lifetime_years":40)", R"("utilization":1.5)", R"("pue":0.5)", R"("upkeep_usd_per_year":-1)"}) {
    CAPTURE(bad);
    const nlohmann::json e = nlohmann::json::parse(recommend(std::string(R"({"model":"qwen2.5-7b-instruct","cost":{)") + bad + "}}"));
    REQUIRE(e.contains("error"));
    CHECK(e["error"]["field"].get<std::string>().rfind("cost.", 0) == 0);
    CHECK(e["error"]["message_data"]["id"] == "error.number");
  }
}

TEST_CASE("Tokens a day set the hours, and more than a day's work needs more machines", "[costs]") {
  const ModelSpec model = test_support::preset("qwen2.5-7b-instruct");
  const MemoryByDevices memory(model, test_support::inference("int4", 1'024, 1'024));
  const std::vector<HardwareSpec> catalog = {entry("nvidia-rtx-4090"), entry("runpod-1x-nvidia-rtx-4090")};
  UsagePattern hours;
  hours.hours_per_day = 1;
  const double speed = row_of(compare_costs(memory, catalog, nullptr, hours, OwnershipCosts{}), "nvidia-rtx-4090")->tokens_per_s;
  REQUIRE(speed > 0);
  // 30 hours of the card's output a day: 30 / 24 → 2 machines bought, 2 × $2,312; the power is still
  // 30 h × 0.600 kW a day (each machine runs 15 h).
  UsagePattern tokens;
  tokens.tokens_per_day = speed * 3600 * 30;
  const CostComparison c = compare_costs(memory, catalog, nullptr, tokens, OwnershipCosts{});
  const CostRow* own = row_of(c, "nvidia-rtx-4090");
  REQUIRE(own != nullptr);
  CHECK_THAT(own->hours_per_day, WithinRel(30.0, 1e-9));
  CHECK(own->machines == 2);
  CHECK_THAT(own->upfront_usd, WithinAbs(4624.0, 1e-6));
  CHECK_THAT(own->power_usd_per_month, WithinAbs(0.6 * 30 * 365.0 / 12.0 * 0.17, 1e-6));
  // Renting: 30 instance-hours a day at $0.34 = $10.20 a day, $310.25 a month.
  CHECK_THAT(row_of(c, "runpod-1x-nvidia-rtx-4090")->usd_per_month, WithinAbs(310.25, 0.01));
}

TEST_CASE("The machine a person has costs only its power", "[costs]") {
  const ModelSpec model = test_support::preset("qwen2.5-0.5b-instruct");
  const MemoryByDevices memory(model, test_support::inference("int4", 1'024, 1'024));
  const HardwareSpec& air = entry("macbook-air-m3");
  UsagePattern usage;
  usage.hours_per_day = 4;
  const std::vector<HardwareSpec> catalog = {entry("runpod-1x-nvidia-rtx-4090")};
  const CostComparison c = compare_costs(memory, catalog, &air, usage, OwnershipCosts{});
  REQUIRE(!c.rows.empty());
  const CostRow& mine = c.rows.front();
  CHECK(mine.kind == CostKind::mine);
  CHECK(mine.upfront_usd == 0);
  // 30 W × 4 h × 30.4167 days × $0.17/kWh = $0.62 a month.
  CHECK_THAT(mine.usd_per_month, WithinAbs(0.62, 0.005));
  CHECK(edge::render_en(mine.explain[1]) == "purchase: already yours, not counted");
  CHECK_THAT(edge::render_en(c.summary), Catch::Matchers::Contains("your MacBook Air 13/15 (M3) costs $0.62 a month in electricity;"));
}

TEST_CASE("The recommend JSON carries the table and reads usage", "[costs][api]") {
  const nlohmann::json r = nlohmann::json::parse(recommend(R"({"model":"qwen2.5-7b-instruct","weights":"int4","usage":{"hours_per_day":8},
    "hardware":"macbook-air-m3"})"));
  REQUIRE(r.contains("costs"));
  const auto& rows = r["costs"]["rows"];
  REQUIRE(rows.size() >= 4);
  CHECK(rows[0]["cost_kind"] == "mine");
  CHECK(rows[0]["id"] == "macbook-air-m3");
  bool laptop = false, desktop = false, cloud = false;
  for (const auto& row : rows) {
    laptop = laptop || row["cost_kind"] == "laptop";
    desktop = desktop || row["cost_kind"] == "desktop-gpu";
    cloud = cloud || row["cost_kind"] == "cloud";
    CHECK(row["explain"].size() == row["explain_data"].size());
    if (row["cost_kind"] == "laptop") CHECK(row.contains("price_source"));
  }
  CHECK((laptop && desktop && cloud));
  const nlohmann::json both = nlohmann::json::parse(recommend(R"({"model":"qwen2.5-7b-instruct","usage":{"hours_per_day":8,"tokens_per_day":5}})"));
  CHECK(both["error"]["field"] == "usage");
  const nlohmann::json bad = nlohmann::json::parse(recommend(R"({"model":"qwen2.5-7b-instruct","usage":{"hours_per_day":25}})"));
  CHECK(bad["error"]["field"] == "usage.hours_per_day");
}

TEST_CASE("Training: a run rented against an owned card's share of it, and after how many runs buying pays", "[costs][training]") {
  // One RTX 4090 and the RunPod 4090 pod ($0.34/h), each training 2,000 tokens/s; a run of 100M
  // tokens takes 10^8 ÷ (2,000 × 3,600) = 13.889 h on either.
  //   rent:  $0.34 × 13.889 h = $4.72 a run; $0.34 ÷ 7.2M tokens an hour = $0.04722 per million;
  //   own:   $2,312 ÷ (3 years × 365 × 8 h) = $0.26393 an hour + 0.600 kW × $0.17 = $0.102 of power
  //          = $0.36593 an hour, $5.08 of a run;
  //   break-even: $2,312 ÷ ($0.047222 − $0.102 ÷ 7.2 = $0.014167 per million) = 69,943 million tokens,
  //          69,943 × 10^6 ÷ 7.2M = 9,714 h of training: more than 3 years × 365 × 8 h = 8,760 h. Never.
  const std::vector<TrainingCostCandidate> both = {{&entry("nvidia-rtx-4090"), 1, 0, 2000.0}, {&entry("runpod-1x-nvidia-rtx-4090"), 1, 0, 2000.0}};
  UsagePattern eight;
  eight.hours_per_day = 8;
  const TrainingCostComparison c = compare_training_costs(both, 1e8, eight, OwnershipCosts{});
  REQUIRE(c.rows.size() == 2);
  const TrainingCostRow& own = c.rows[0];
  const TrainingCostRow& rent = c.rows[1];
  REQUIRE(own.kind == CostKind::desktop_gpu);
  REQUIRE(rent.kind == CostKind::cloud);
  CHECK(c.rent_reference == 1);
  CHECK_THAT(rent.run_hours, WithinAbs(13.889, 0.001));
  CHECK_THAT(rent.run_usd, WithinAbs(4.722, 0.001));
  CHECK_THAT(rent.usd_per_million_tokens, WithinAbs(0.047222, 1e-6));
  CHECK_THAT(own.upfront_usd, WithinAbs(2312.0, 1e-9));
  CHECK_THAT(own.amortization_usd_per_hour, WithinAbs(0.263927, 1e-6));
  CHECK_THAT(own.running_usd_per_hour, WithinAbs(0.102, 1e-9));
  CHECK_THAT(own.run_usd, WithinAbs(5.0823, 0.0001));
  CHECK(own.break_even_million_tokens == -1.0);
  CHECK(own.break_even_runs == 0);
  CHECK_THAT(edge::render_en(own.explain.back()), Catch::Matchers::StartsWith("never pays for itself within its life") &&
                                                      Catch::Matchers::Contains("= 69.9B tokens, 9714 h of training, more than the 8760 h of 3.0 years at 8.0 h a day"));
  CHECK(edge::render_en(c.summary) ==
        "For one run of 100M tokens: renting RunPod 1x NVIDIA GeForce RTX 4090 pod (1x NVIDIA GeForce RTX 4090) costs $4.72 (13.9 h); "
        "buying NVIDIA GeForce RTX 4090 for $2,312 does not pay for itself within its 3-year life at 8.0 hours of training a day.");

  // 12 hours a day: the life holds 3 × 365 × 12 = 13,140 h, more than 9,714: it pays for itself after
  // 69,943 million tokens = 699 runs of 100M; its share of a run is ($2,312 ÷ 13,140 h + $0.102) ×
  // 13.889 h = $3.86.
  UsagePattern twelve;
  twelve.hours_per_day = 12;
  const TrainingCostComparison d = compare_training_costs(both, 1e8, twelve, OwnershipCosts{});
  CHECK_THAT(d.rows[0].break_even_million_tokens, WithinRel(69'943.0, 1e-4));
  CHECK_THAT(d.rows[0].break_even_runs, WithinRel(699.43, 1e-4));
  CHECK_THAT(d.rows[0].run_usd, WithinAbs(3.8604, 0.0001));
  CHECK_THAT(edge::render_en(d.summary),
             Catch::Matchers::EndsWith("buying NVIDIA GeForce RTX 4090 for $2,312 (its share of a run $3.86) pays for itself after 699 runs."));

  // No dataset size: no run is made up; the table stands per million tokens, the break-even in tokens.
  const TrainingCostComparison e = compare_training_costs(both, 0, twelve, OwnershipCosts{});
  CHECK(e.run_tokens == 0);
  CHECK(e.rows[1].run_usd == 0);
  CHECK(e.rows[0].break_even_runs == 0);
  CHECK(edge::render_en(e.summary) ==
        "Per million tokens trained (a run's time and total cost need the dataset size): renting RunPod 1x NVIDIA GeForce RTX 4090 pod "
        "(1x NVIDIA GeForce RTX 4090) costs $0.047 per million tokens; buying NVIDIA GeForce RTX 4090 for $2,312 ($0.039 per million tokens "
        "with the purchase spread over its life) pays for itself after 69.9B tokens.");
}

TEST_CASE("Every laptop has a dated, sourced price and a sourced wall power", "[costs][data]") {
  namespace fs = std::filesystem;
  int laptops = 0;
  for (const auto& file : fs::directory_iterator(std::string(LLMSIZER_DATA_DIR) + "/hardware")) {
    if (file.path().extension() != ".json") continue;
    std::ifstream in(file.path());
    const nlohmann::json d = nlohmann::json::parse(in);
    if (d.value("kind", std::string()) != "laptop") continue;
    CAPTURE(file.path().filename().string());
    ++laptops;
    if (d.contains("price_usd_by_memory")) {
      // One list price per memory configuration, rising with the memory.
      REQUIRE(d["price_usd_by_memory"].size() == d["memory_options_bytes"].size());
      double previous = 0;
      for (const auto& p : d["price_usd_by_memory"]) {
        CHECK(p.get<double>() > previous);
        previous = p.get<double>();
      }
      CHECK(previous <= 10'000);
    } else {
      CHECK(d.value("price_usd", 0.0) >= 500);
      CHECK(d.value("price_usd", 0.0) <= 10'000);
    }
    const std::string date = d.value("price_date", std::string());
    CHECK(date.size() == 10);
    CHECK(date.substr(0, 2) == "20");
    CHECK(d.value("price_source", std::string()).size() > 20);
    CHECK(d.value("power_w", 0.0) >= 20);
    CHECK(d.value("power_w", 0.0) <= 400);
    CHECK(d.value("power_source", std::string()).size() > 20);
  }
  CHECK(laptops == 17);
}

}  // namespace buy_or_rent_test
