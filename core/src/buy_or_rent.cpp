// SPDX-License-Identifier: MIT
#include "llmsizer/buy_or_rent.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <vector>

#include "arithmetic.hpp"

namespace llmsizer {

const char* cost_kind_id(CostKind kind) {
  switch (kind) {
    case CostKind::mine: return "mine";
    case CostKind::laptop: return "laptop";
    case CostKind::desktop_gpu: return "desktop-gpu";
    case CostKind::desktop_cpu: return "desktop-cpu";
    case CostKind::cloud: return "cloud";
  }
  return "cloud";
}

namespace {

using detail::kSecondsPerHour;

/** The rows a table keeps: per kind in `kinds`' order, up to kCostRowsPerKind of that kind, the
 *  cheapest per million tokens first (a selection by scans: a sort would be code the WASM module
 *  carries for one table). Ties keep the rows' order. Indices into `rows`. */
template <class Row>
std::vector<std::size_t> cheapest_per_kind(const std::vector<Row>& rows, std::initializer_list<CostKind> kinds) {
  std::vector<std::size_t> kept;
  std::vector<bool> taken(rows.size(), false);
  for (const CostKind kind : kinds) {
    for (std::size_t n = 0; n < kCostRowsPerKind; ++n) {
      std::size_t best = rows.size();
      for (std::size_t i = 0; i < rows.size(); ++i) {
        if (taken[i] || rows[i].kind != kind) continue;
        if (best == rows.size() || rows[i].usd_per_million_tokens < rows[best].usd_per_million_tokens) best = i;
      }
      if (best == rows.size()) break;
      taken[best] = true;
      kept.push_back(best);
    }
  }
  return kept;
}

/// A life in whole years is said so ("3-year"), else with its tenths.
int years_digits(double years) { return years == std::floor(years) ? 0 : 1; }

CostKind kind_of(const HardwareSpec& hw) {
  switch (hw.kind) {
    case HardwareKind::laptop: return CostKind::laptop;
    case HardwareKind::cpu: return CostKind::desktop_cpu;
    case HardwareKind::instance: return CostKind::cloud;
    case HardwareKind::gpu: return CostKind::desktop_gpu;
  }
  return CostKind::cloud;
}

/// The option's numbers at the usage pattern; none when it has no speed, or (but for the person's
/// own machine) no price.
std::optional<CostNumbers> price_numbers(const HardwareOption& o, CostKind kind, const UsagePattern& usage, const OwnershipCosts& costs) {
  if (!o.fit.fits || !o.speed.known || !(o.speed.decode_tokens_per_s_total > 0)) return std::nullopt;
  if (kind != CostKind::mine && !o.cost.known) return std::nullopt;
  CostNumbers r;
  r.kind = kind;
  r.tokens_per_s = o.speed.decode_tokens_per_s_total;
  if (usage.tokens_per_day > 0) {
    r.tokens_per_day = usage.tokens_per_day;
    r.hours_per_day = usage.tokens_per_day / (r.tokens_per_s * kSecondsPerHour);
  } else {
    r.hours_per_day = usage.hours_per_day > 0 ? usage.hours_per_day : kDefaultUsageHoursPerDay;
    r.tokens_per_day = r.tokens_per_s * kSecondsPerHour * r.hours_per_day;
  }
  const double hours_per_month = r.hours_per_day * kDaysPerMonth;
  if (kind == CostKind::cloud) {
    // Rented by the hour: as many instances as the day's work needs cost the same per hour of work.
    r.rent_usd_per_month = o.hardware->price_usd_per_hour * hours_per_month;
    r.usd_per_month = r.rent_usd_per_month;
  } else {
    // Owned: a day's work that takes more than 24 hours needs more than one machine.
    r.machines = std::max(1, static_cast<int>(std::ceil(r.hours_per_day / 24.0 - 1e-9)));
    r.upfront_usd = kind == CostKind::mine ? 0.0 : o.cost.purchase_usd * r.machines;
    r.amortization_usd_per_month = r.upfront_usd / (costs.lifetime_years * 12.0);
    r.power_usd_per_month = o.cost.power_w / 1000.0 * costs.utilization * costs.electricity_usd_per_kwh * costs.pue * hours_per_month;
    r.upkeep_usd_per_month = costs.upkeep_usd_per_year / 12.0 * r.machines;
    r.usd_per_month = r.amortization_usd_per_month + r.power_usd_per_month + r.upkeep_usd_per_month;
  }
  r.usd_per_hour = hours_per_month > 0 ? r.usd_per_month / hours_per_month : 0.0;
  r.usd_per_million_tokens = r.tokens_per_day > 0 ? r.usd_per_month / (r.tokens_per_day * kDaysPerMonth) * 1e6 : 0.0;
  return r;
}

/** A row of the table: its numbers (price_numbers), the option and the explanation of the numbers.
 *  Made only for the rows the table keeps: every priced option is a candidate, and explaining
 *  (and copying) each of them was most of the cost table's time. */
CostRow explained_row(const CostNumbers& numbers, HardwareOption option, const UsagePattern& usage, const OwnershipCosts& costs) {
  CostRow r;
  static_cast<CostNumbers&>(r) = numbers;
  r.option = std::move(option);
  const HardwareOption& o = r.option;
  const CostKind kind = r.kind;
  const std::int64_t tokens_per_day = static_cast<std::int64_t>(std::llround(r.tokens_per_day));
  if (usage.tokens_per_day > 0) {
    r.explain.push_back(Message("costs.explain.hours_from_tokens").grouped("tokens", tokens_per_day).decimal("speed", r.tokens_per_s, 1)
                            .decimal("hours", r.hours_per_day, 2));
  } else {
    r.explain.push_back(Message("costs.explain.tokens_from_hours").decimal("speed", r.tokens_per_s, 1).decimal("hours", r.hours_per_day, 1)
                            .grouped("tokens", tokens_per_day));
  }
  if (kind == CostKind::cloud) {
    r.explain.push_back(Message("costs.explain.rent").usd("hourly", o.hardware->price_usd_per_hour, 2).decimal("hours", r.hours_per_day, 2)
                            .decimal("days", kDaysPerMonth, 2).usd("monthly", r.rent_usd_per_month, 2));
  } else {
    if (kind == CostKind::mine) {
      r.explain.push_back(Message("costs.explain.already_owned"));
    } else {
      Message purchase = o.cost.rest_of_box_usd > 0
                             ? Message("costs.explain.purchase_box").usd("hardware", o.cost.hardware_usd, 0).usd("box", o.cost.rest_of_box_usd, 0)
                             : Message("costs.explain.purchase").usd("hardware", o.cost.hardware_usd, 0);
      purchase.integer("machines", r.machines).usd("upfront", r.upfront_usd, 0);
      r.explain.push_back(std::move(purchase));
      r.explain.push_back(Message("costs.explain.amortization").usd("upfront", r.upfront_usd, 0).decimal("years", costs.lifetime_years, 1)
                              .usd("monthly", r.amortization_usd_per_month, 2));
    }
    r.explain.push_back(Message("costs.explain.power").decimal("watts", o.cost.power_w, 0).decimal("utilization", costs.utilization, 2)
                            .decimal("hours", r.hours_per_day, 2).decimal("days", kDaysPerMonth, 2)
                            .decimal("pue", costs.pue, 2).usd("kwh", costs.electricity_usd_per_kwh, 3).usd("monthly", r.power_usd_per_month, 2));
    r.explain.push_back(Message("costs.explain.upkeep").usd("yearly", costs.upkeep_usd_per_year * r.machines, 0)
                            .usd("monthly", r.upkeep_usd_per_month, 2));
  }
  r.explain.push_back(Message("costs.explain.per_million_tokens").usd("monthly", r.usd_per_month, 2).grouped("tokens", tokens_per_day)
                          .decimal("days", kDaysPerMonth, 2).usd("per_million_tokens", r.usd_per_million_tokens, 3));
  return r;
}

}  // namespace

CostComparison compare_costs(const MemoryByDevices& memory, const std::vector<HardwareSpec>& catalog,
                             const HardwareSpec* mine, const UsagePattern& usage, const OwnershipCosts& costs) {
  return compare_costs(CatalogOptions(memory, catalog, costs), mine, usage);
}

CostComparison compare_costs(const CatalogOptions& evaluated, const HardwareSpec* mine, const UsagePattern& usage) {
  const MemoryByDevices& memory = evaluated.memory();
  const std::vector<HardwareSpec>& catalog = evaluated.catalog();
  const OwnershipCosts& costs = evaluated.costs();
  CostComparison out;
  out.usage = usage;
  // Candidates: every priced option's numbers (a row's option and explanation only once it is kept).
  std::vector<CostNumbers> candidates;
  std::vector<const HardwareOption*> candidate_options;
  candidates.reserve(catalog.size());
  candidate_options.reserve(catalog.size());
  for (std::size_t i = 0; i < catalog.size(); ++i) {
    const HardwareSpec& hw = catalog[i];
    if (!hw.unsupported.id.empty()) continue;
    const CostKind kind = kind_of(hw);
    // Cheap checks first: only a priced option can be in the table.
    if (kind == CostKind::cloud ? !hw.is_rented() : hw.price_usd <= 0) continue;
    const HardwareOption& option = evaluated.at(i);
    if (std::optional<CostNumbers> row = price_numbers(option, kind, usage, costs)) {
      candidates.push_back(*row);
      candidate_options.push_back(&option);
    }
  }
  if (mine != nullptr) {
    HardwareOption o = evaluate_option(memory, *mine, costs, catalog);
    if (!o.cost.known) o.cost.power_w = purchase_of(*mine, o.fit.gpus_used, o.fit.memory_option_bytes, 0, costs).power_w;
    if (std::optional<CostNumbers> row = price_numbers(o, CostKind::mine, usage, costs)) out.rows.push_back(explained_row(*row, std::move(o), usage, costs));
  }
  // The reference rent: the instance that costs least per token, the first cloud row.
  for (const std::size_t best : cheapest_per_kind(candidates, {CostKind::laptop, CostKind::desktop_gpu, CostKind::desktop_cpu, CostKind::cloud})) {
    if (candidates[best].kind == CostKind::cloud && out.rent_reference < 0) out.rent_reference = static_cast<int>(out.rows.size());
    out.rows.push_back(explained_row(candidates[best], *candidate_options[best], usage, costs));
  }
  const CostRow* reference = out.rent_reference >= 0 ? &out.rows[static_cast<std::size_t>(out.rent_reference)] : nullptr;
  if (reference != nullptr) {
    // Buying pays for itself once the rent saved (less what owning costs to run) covers the purchase.
    // The rent is for the same work: the tokens this option makes in a month at the usage, on the
    // reference (at hours a day, a CPU box that makes a tenth of the pod's tokens would otherwise
    // "save" nine tenths of a rent it never needed). That rent is kept with the row and quoted
    // beside the purchase in the summary and the table, so the months follow from figures shown.
    // A purchase that takes longer than its life to pay back never does: by then it is replaced
    // (cost.hpp: lifetime_years).
    const double life_months = costs.lifetime_years * 12.0;
    for (auto& row : out.rows) {
      if (row.kind == CostKind::cloud || row.kind == CostKind::mine) continue;
      const double rent = reference->usd_per_million_tokens * row.tokens_per_day * kDaysPerMonth / 1e6;
      row.rent_same_work_usd_per_month = rent;
      const double running = row.power_usd_per_month + row.upkeep_usd_per_month;
      const double saving = rent - running;
      const double months = saving > 0 ? row.upfront_usd / saving : -1.0;
      const bool within_life = months > 0 && months <= life_months;
      row.break_even_months = within_life ? months : -1.0;
      Message m = within_life  ? Message("costs.explain.break_even").decimal("months", months, 1)
                  : saving > 0 ? Message("costs.explain.beyond_life").decimal("months", months, 1)
                               : Message("costs.explain.never_breaks_even");
      m.usd("upfront", row.upfront_usd, 0).text("instance", reference->option.hardware->name).usd("rent", rent, 2).usd("running", running, 2);
      if (saving > 0) m.integer("life_months", std::llround(life_months));
      row.explain.push_back(std::move(m));
    }
  }
  // The answer in one sentence: the usage, what renting costs, the purchase that pays back soonest.
  Message summary = usage.tokens_per_day > 0
                        ? Message("costs.summary.tokens").grouped("tokens", static_cast<std::int64_t>(std::llround(usage.tokens_per_day)))
                        : Message("costs.summary.hours").decimal("hours", usage.hours_per_day > 0 ? usage.hours_per_day : kDefaultUsageHoursPerDay, 1);
  if (out.rows.empty()) {
    out.summary = summary.then(Message("costs.nothing_priced_fits"));
    return out;
  }
  for (const auto& row : out.rows) {
    if (row.kind == CostKind::mine) {
      summary.then(Message("costs.mine").text("name", row.option.hardware->name).usd("monthly", row.usd_per_month, 2));
    }
  }
  if (reference != nullptr) {
    summary.then(Message("costs.rent").text("name", reference->option.hardware->name).usd("monthly", reference->usd_per_month, 0)
                     .usd("per_million_tokens", reference->usd_per_million_tokens, 2));
  }
  const CostRow* buy = nullptr;
  for (const auto& row : out.rows) {
    if (row.kind == CostKind::cloud || row.kind == CostKind::mine) continue;
    const auto better = [&](const CostRow& a, const CostRow& b) {
      const bool a_pays = a.break_even_months > 0, b_pays = b.break_even_months > 0;
      if (a_pays != b_pays) return a_pays;
      if (a_pays) return a.break_even_months < b.break_even_months;
      return a.usd_per_million_tokens < b.usd_per_million_tokens;
    };
    if (buy == nullptr || better(row, *buy)) buy = &row;
  }
  if (buy != nullptr) {
    // "Pays for itself" only within the life; past it the headline says so instead of a month count.
    // Either way it quotes the rent of the same work, the figure the months are counted against.
    const bool saves = reference != nullptr && buy->rent_same_work_usd_per_month > buy->power_usd_per_month + buy->upkeep_usd_per_month;
    Message m = buy->break_even_months > 0
                    ? Message("costs.buy_pays_back").decimal("months", buy->break_even_months, buy->break_even_months < 10 ? 1 : 0)
                    : Message(reference == nullptr ? "costs.buy_no_rental" : saves ? "costs.buy_beyond_life" : "costs.buy_never_pays_back");
    m.text("name", buy->option.hardware->name).usd("upfront", buy->upfront_usd, 0).usd("monthly", buy->usd_per_month, 0);
    if (saves) m.usd("rent", buy->rent_same_work_usd_per_month, 0);
    if (saves && !(buy->break_even_months > 0)) m.decimal("years", costs.lifetime_years, years_digits(costs.lifetime_years));
    summary.then(std::move(m));
  }
  out.summary = std::move(summary);
  return out;
}

namespace {

/// Training's row at `run_tokens` (0: unknown), without its break-even; none when it has no price.
std::optional<TrainingCostRow> training_row(const TrainingCostCandidate& c, double run_tokens, double hours_per_day, const OwnershipCosts& costs) {
  if (c.hardware == nullptr || !(c.tokens_per_s > 0)) return std::nullopt;
  const HardwareSpec& hw = *c.hardware;
  TrainingCostRow r;
  r.kind = kind_of(hw);
  r.hardware = &hw;
  r.gpus = c.gpus;
  r.memory_option_bytes = c.memory_option_bytes;
  r.tokens_per_s = c.tokens_per_s;
  const double tokens_per_hour = c.tokens_per_s * kSecondsPerHour;
  Purchase purchase;
  OwnedHourlyCost owned;
  if (r.kind == CostKind::cloud) {
    if (!hw.is_rented()) return std::nullopt;
    r.usd_per_hour = hw.price_usd_per_hour;
  } else {
    purchase = purchase_of(hw, c.gpus, c.memory_option_bytes, 0, costs);
    if (!purchase.known()) return std::nullopt;
    // The share of an owned machine: its purchase spread over the hours it trains in its life (the
    // card's hours a day), plus the power and upkeep of an hour of training.
    OwnershipCosts at_usage = costs;
    at_usage.hours_per_day = hours_per_day;
    owned = owned_hourly_cost(purchase.total_usd(), purchase.power_w, at_usage);
    r.upfront_usd = purchase.total_usd();
    r.amortization_usd_per_hour = owned.amortization_usd_per_hour;
    r.running_usd_per_hour = owned.power_usd_per_hour + owned.upkeep_usd_per_hour;
    r.usd_per_hour = owned.total_usd_per_hour;
  }
  r.usd_per_million_tokens = r.usd_per_hour / tokens_per_hour * 1e6;
  if (run_tokens > 0) {
    r.run_hours = run_tokens / tokens_per_hour;
    r.run_usd = r.usd_per_hour * r.run_hours;
  }
  // Each number as its formula: the run's hours, the price of an hour, a million tokens, the run.
  if (run_tokens > 0) {
    r.explain.push_back(Message("costs.training.explain.run_hours").short_count("tokens", std::llround(run_tokens)).decimal("speed", r.tokens_per_s, 1)
                            .decimal("hours", r.run_hours, 2));
  }
  if (r.kind == CostKind::cloud) {
    r.explain.push_back(Message("costs.training.explain.rent").usd("hourly", r.usd_per_hour, 2));
  } else {
    Message buy = purchase.rest_of_box_usd > 0
                      ? Message("costs.explain.purchase_box").usd("hardware", purchase.hardware_usd, 0).usd("box", purchase.rest_of_box_usd, 0)
                      : Message("costs.explain.purchase").usd("hardware", purchase.hardware_usd, 0);
    buy.integer("machines", 1).usd("upfront", r.upfront_usd, 0);
    r.explain.push_back(std::move(buy));
    r.explain.push_back(Message("costs.training.explain.amortization").usd("upfront", r.upfront_usd, 0).decimal("years", costs.lifetime_years, 1)
                            .decimal("hours", hours_per_day, 1).usd("hourly", r.amortization_usd_per_hour, 3));
    r.explain.push_back(Message("costs.training.explain.power").decimal("watts", purchase.power_w, 0).decimal("utilization", costs.utilization, 2)
                            .decimal("pue", costs.pue, 2).usd("kwh", costs.electricity_usd_per_kwh, 3).usd("hourly", owned.power_usd_per_hour, 3));
    r.explain.push_back(Message("costs.training.explain.upkeep").usd("yearly", costs.upkeep_usd_per_year, 0).decimal("hours", hours_per_day, 1)
                            .usd("hourly", owned.upkeep_usd_per_hour, 3));
  }
  r.explain.push_back(Message("costs.training.explain.per_million_tokens").usd("hourly", r.usd_per_hour, 3).decimal("speed", r.tokens_per_s, 1)
                          .usd("per_million_tokens", r.usd_per_million_tokens, 3));
  if (run_tokens > 0) {
    r.explain.push_back(Message("costs.training.explain.run_cost").usd("hourly", r.usd_per_hour, 3).decimal("hours", r.run_hours, 2)
                            .usd("run", r.run_usd, 2));
  }
  return r;
}

}  // namespace

TrainingCostComparison compare_training_costs(const std::vector<TrainingCostCandidate>& candidates, double run_tokens,
                                              const UsagePattern& usage, const OwnershipCosts& costs) {
  TrainingCostComparison out;
  out.run_tokens = run_tokens > 0 ? run_tokens : 0.0;
  // Training runs by the hour: tokens a day (an inference pattern) do not apply; the hours a day
  // the card asks for spread an owned machine's purchase, as in inference's table.
  out.hours_per_day = usage.hours_per_day > 0 ? usage.hours_per_day : kDefaultUsageHoursPerDay;
  out.lifetime_years = costs.lifetime_years;
  std::vector<TrainingCostRow> priced;
  priced.reserve(candidates.size());
  for (const TrainingCostCandidate& c : candidates) {
    if (std::optional<TrainingCostRow> row = training_row(c, out.run_tokens, out.hours_per_day, costs)) priced.push_back(std::move(*row));
  }
  // Per kind, the cheapest per token (every option trains the same tokens: the cheapest run).
  for (const std::size_t best : cheapest_per_kind(priced, {CostKind::laptop, CostKind::desktop_gpu, CostKind::cloud})) {
    if (priced[best].kind == CostKind::cloud && out.rent_reference < 0) out.rent_reference = static_cast<int>(out.rows.size());
    out.rows.push_back(std::move(priced[best]));
  }
  const TrainingCostRow* reference = out.rent_reference >= 0 ? &out.rows[static_cast<std::size_t>(out.rent_reference)] : nullptr;
  // Buying pays for itself once the rent saved on the tokens trained (the reference's price per
  // token, less the owned machine's power and upkeep per token) covers the purchase; a purchase
  // that needs more hours of training than its life holds at the hours a day never does.
  const double life_hours = costs.lifetime_years * 365.0 * out.hours_per_day;
  if (reference != nullptr) {
    for (auto& row : out.rows) {
      if (row.kind == CostKind::cloud) continue;
      const double tokens_per_hour = row.tokens_per_s * kSecondsPerHour;
      const double rent = reference->usd_per_million_tokens;
      const double running = row.running_usd_per_hour / tokens_per_hour * 1e6;
      const double saving = rent - running;
      const double million_tokens = saving > 0 ? row.upfront_usd / saving : -1.0;
      const double hours = million_tokens * 1e6 / tokens_per_hour;
      const bool within_life = million_tokens > 0 && hours <= life_hours;
      row.break_even_million_tokens = within_life ? million_tokens : -1.0;
      row.break_even_runs = within_life && out.run_tokens > 0 ? million_tokens * 1e6 / out.run_tokens : 0.0;
      const std::int64_t tokens = std::llround(std::max(0.0, million_tokens) * 1e6);
      Message m = within_life  ? Message("costs.training.explain.break_even").short_count("tokens", tokens)
                  : saving > 0 ? Message("costs.training.explain.beyond_life").short_count("tokens", tokens).decimal("hours", hours, 0)
                                     .decimal("life_hours", life_hours, 0).decimal("years", costs.lifetime_years, 1)
                                     .decimal("hours_per_day", out.hours_per_day, 1)
                               : Message("costs.training.explain.never_breaks_even");
      m.usd("upfront", row.upfront_usd, 0).text("instance", reference->hardware->name).usd("rent", rent, 3).usd("running", running, 3);
      if (row.break_even_runs > 0) m.then(Message("costs.training.explain.runs").decimal("runs", row.break_even_runs, 1));
      row.explain.push_back(std::move(m));
    }
  }
  // The answer in one sentence: what a run (or a million tokens) costs rented, and the purchase
  // that pays back soonest.
  Message summary = out.run_tokens > 0 ? Message("costs.training.summary.run").short_count("tokens", std::llround(out.run_tokens))
                                       : Message("costs.training.summary.per_million");
  if (out.rows.empty()) {
    out.summary = summary.then(Message("costs.nothing_priced_fits"));
    return out;
  }
  if (reference != nullptr) {
    summary.then(out.run_tokens > 0 ? Message("costs.training.rent_run").text("name", reference->hardware->name).usd("run", reference->run_usd, 2)
                                          .decimal("hours", reference->run_hours, 1)
                                    : Message("costs.training.rent_per_million").text("name", reference->hardware->name)
                                          .usd("per_million_tokens", reference->usd_per_million_tokens, 3));
  }
  const TrainingCostRow* buy = nullptr;
  for (const auto& row : out.rows) {
    if (row.kind == CostKind::cloud) continue;
    const auto better = [](const TrainingCostRow& a, const TrainingCostRow& b) {
      const bool a_pays = a.break_even_million_tokens > 0, b_pays = b.break_even_million_tokens > 0;
      if (a_pays != b_pays) return a_pays;
      if (a_pays) return a.break_even_million_tokens < b.break_even_million_tokens;
      return a.usd_per_million_tokens < b.usd_per_million_tokens;
    };
    if (buy == nullptr || better(row, *buy)) buy = &row;
  }
  if (buy != nullptr) {
    const double running = buy->running_usd_per_hour / (buy->tokens_per_s * kSecondsPerHour) * 1e6;
    const bool saves = reference != nullptr && reference->usd_per_million_tokens > running;
    Message m;
    if (buy->break_even_million_tokens > 0 && out.run_tokens > 0) {
      m = Message("costs.training.buy_pays_back_runs").usd("run", buy->run_usd, 2)
              .decimal("runs", buy->break_even_runs, buy->break_even_runs < 10 ? 1 : 0);
    } else if (buy->break_even_million_tokens > 0) {
      m = Message("costs.training.buy_pays_back_tokens").usd("per_million_tokens", buy->usd_per_million_tokens, 3)
              .short_count("tokens", std::llround(buy->break_even_million_tokens * 1e6));
    } else if (reference == nullptr) {
      m = Message("costs.training.buy_no_rental");
    } else if (saves) {
      m = Message("costs.training.buy_beyond_life").decimal("years", costs.lifetime_years, years_digits(costs.lifetime_years))
              .decimal("hours", out.hours_per_day, 1);
    } else {
      m = Message("costs.training.buy_never_pays_back");
    }
    // Cards bought by the piece: the count is part of what is bought ("4 × RTX 5080").
    const bool several = buy->hardware->kind != HardwareKind::instance && buy->gpus > 1;
    m.text("name", several ? std::to_string(buy->gpus) + " × " + buy->hardware->name : buy->hardware->name).usd("upfront", buy->upfront_usd, 0);
    summary.then(std::move(m));
  }
  out.summary = std::move(summary);
  return out;
}

}  // namespace llmsizer
