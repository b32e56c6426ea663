// SPDX-License-Identifier: MIT
#include "llmsizer/recommend.hpp"

#include <algorithm>
#include <memory>

#include "llmsizer/precision.hpp"
#include "stable_order.hpp"

namespace llmsizer {

const char* goal_id(Goal goal) {
  switch (goal) {
    case Goal::cheapest: return "cheapest";
    case Goal::fastest: return "fastest";
    case Goal::best_value: return "best-value";
    case Goal::local: return "local";
    case Goal::laptop: return "laptop";
  }
  return "best-value";
}

bool parse_goal(const std::string& text, Goal& goal) {
  for (Goal g : {Goal::cheapest, Goal::fastest, Goal::best_value, Goal::local, Goal::laptop}) {
    if (text == goal_id(g)) {
      goal = g;
      return true;
    }
  }
  return false;
}

Purchase purchase_of(const HardwareSpec& hw, int gpus, std::int64_t memory_option_bytes, std::int64_t host_bytes_needed,
                     const OwnershipCosts& costs) {
  Purchase p;
  if (hw.is_rented()) return p;
  if (hw.is_machine && hw.price_usd <= 0) {
    // A machine the person has, typed in: nothing to buy; it draws what a box of its kind draws (a
    // CPU at least the box's own 65 W CPU, cost.hpp kRestOfBoxCpuPowerW).
    if (hw.kind == HardwareKind::laptop || hw.unified_memory) {
      p.power_w = hw.power_w > 0 ? hw.power_w : hw.tdp_w;
    } else if (hw.is_cpu()) {
      p.power_w = (std::max(hw.tdp_w, kRestOfBoxCpuPowerW) + kRestOfBoxPowerW - kRestOfBoxCpuPowerW) / kPsuEfficiency;
    } else {
      p.power_w = (hw.tdp_w * std::max(1, gpus) + kRestOfBoxPowerW) / kPsuEfficiency;
    }
    return p;
  }
  if (hw.kind == HardwareKind::laptop) {
    p.hardware_usd = hw.price_usd;
    for (std::size_t i = 0; i < hw.memory_options_bytes.size() && i < hw.memory_option_prices_usd.size(); ++i) {
      if (hw.memory_options_bytes[i] == memory_option_bytes) p.hardware_usd = hw.memory_option_prices_usd[i];
    }
    p.power_w = hw.power_w;
  } else if (hw.kind == HardwareKind::cpu) {
    if (hw.price_usd <= 0 || hw.segment != "desktop") return p;  // a server or laptop CPU's platform is not priced
    p.hardware_usd = hw.price_usd;
    double ram = 0;
    if (host_bytes_needed > kRestOfBoxRamBytes) {
      ram = kRestOfBoxRamUsd * static_cast<double>(host_bytes_needed - kRestOfBoxRamBytes) / static_cast<double>(kRestOfBoxRamBytes);
    }
    p.rest_of_box_usd = std::max(0.0, costs.rest_of_box_usd - kRestOfBoxCpuUsd) + ram;
    p.power_w = (hw.tdp_w + kRestOfBoxPowerW - kRestOfBoxCpuPowerW) / kPsuEfficiency;
  } else if (hw.kind == HardwareKind::gpu && hw.price_usd > 0) {
    const int devices = std::max(1, gpus);
    p.hardware_usd = hw.price_usd * devices;
    if (!hw.unified_memory) {
      p.rest_of_box_usd = costs.rest_of_box_usd;
      p.power_w = (hw.tdp_w * devices + kRestOfBoxPowerW) / kPsuEfficiency;
    } else {
      p.power_w = hw.tdp_w;
    }
  }
  if (!p.known()) return Purchase{};
  return p;
}

namespace {

/// Instances that may rent what an owned GPU does: rented instances, each named once, in catalog order.
using Rentals = std::vector<const HardwareSpec*>;

/// The rented instances of `catalog`, in catalog order.
Rentals rentals_in(const std::vector<HardwareSpec>& catalog) {
  Rentals rentals;
  for (const auto& other : catalog) {
    if (other.kind == HardwareKind::instance && other.is_rented()) rentals.push_back(&other);
  }
  return rentals;
}

/// option_cost with the break-even searched among `rentals` (any rented instances, in catalog order).
OptionCost option_cost_among(const HardwareSpec& hw, int gpus, double tokens_per_s_total, const OwnershipCosts& costs,
                             const HardwareSpec* const* rentals_begin, const HardwareSpec* const* rentals_end,
                             std::int64_t memory_option_bytes, std::int64_t host_bytes_needed) {
  OptionCost c;
  if (hw.is_rented()) {
    c.known = true;
    c.rented = true;
    c.usd_per_hour = hw.price_usd_per_hour;
  } else if (const Purchase p = purchase_of(hw, gpus, memory_option_bytes, host_bytes_needed, costs); p.known()) {
    const int devices = std::max(1, gpus);
    c.known = true;
    c.purchase_usd = p.total_usd();
    c.hardware_usd = p.hardware_usd;
    c.rest_of_box_usd = p.rest_of_box_usd;
    c.power_w = p.power_w;
    const OwnedHourlyCost owned = owned_hourly_cost(c.purchase_usd, p.power_w, costs);
    c.usd_per_hour = owned.total_usd_per_hour;
    c.power_usd_per_hour = owned.power_usd_per_hour;
    // Buy or rent: the cheapest instance with this GPU, enough of them.
    const HardwareSpec* cheapest = nullptr;
    for (const HardwareSpec* const* it = rentals_begin; it != rentals_end; ++it) {
      const HardwareSpec& other = **it;
      if (hw.kind == HardwareKind::gpu && other.kind == HardwareKind::instance && other.gpu_id == hw.id && other.device_count >= devices &&
          other.is_rented() && (cheapest == nullptr || other.price_usd_per_hour < cheapest->price_usd_per_hour)) {
        cheapest = &other;
      }
    }
    if (cheapest != nullptr) {
      c.break_even_instance = cheapest->id;
      c.break_even_hours = break_even_hours(c.purchase_usd, cheapest->price_usd_per_hour, owned.power_usd_per_hour + owned.upkeep_usd_per_hour);
    }
  }
  if (c.known) c.usd_per_million_tokens = usd_per_million_tokens(c.usd_per_hour, tokens_per_s_total);
  return c;
}

}  // namespace

OptionCost option_cost(const HardwareSpec& hw, int gpus, double tokens_per_s_total, const OwnershipCosts& costs,
                       const std::vector<HardwareSpec>& catalog, std::int64_t memory_option_bytes, std::int64_t host_bytes_needed) {
  const Rentals rentals = hw.kind == HardwareKind::gpu ? rentals_in(catalog) : Rentals();
  return option_cost_among(hw, gpus, tokens_per_s_total, costs, rentals.data(), rentals.data() + rentals.size(), memory_option_bytes,
                           host_bytes_needed);
}

Message option_reason(const HardwareOption& o, const InferenceSettings& s) {
  Message text;
  if (o.fit.placement == Placement::cpu) {
    text = Message("recommend.fits_in_ram").bytes_1("needed", o.fit.required_bytes + kOsReserveBytes).bytes_1("headroom", o.fit.headroom_bytes);
  } else if (o.fit.placement == Placement::unified) {
    text = Message("recommend.fits_unified").memory_size("memory", o.fit.memory_option_bytes).bytes_1("headroom", o.fit.headroom_bytes);
  } else if (o.fit.gpus_used > 1) {
    text = Message("recommend.fits_multi_gpu").integer("gpus", o.fit.gpus_used).bytes_1("headroom", o.fit.headroom_bytes);
  } else {
    text = Message("recommend.fits").bytes_1("headroom", o.fit.headroom_bytes);
  }
  const std::int64_t context = s.input_tokens + s.output_tokens;
  if (context >= 1024 && context % 1024 == 0) text.then(Message("recommend.at_context_k").integer("k", context / 1024));
  else text.then(Message("recommend.at_context_tokens").integer("tokens", context));
  if (o.speed.known) {
    if (s.batch > 1) {
      text.then(Message("recommend.speed_batch").decimal("per_sequence_tokens_per_s", o.speed.decode_tokens_per_s, 0)
                    .decimal("batch_tokens_per_s", o.speed.decode_tokens_per_s_total, 0).integer("batch", s.batch));
    } else {
      text.then(Message("recommend.speed").decimal("tokens_per_s", o.speed.decode_tokens_per_s, o.speed.decode_tokens_per_s < 10 ? 1 : 0));
    }
  } else {
    text.then(Message("recommend.speed_unknown"));
  }
  if (o.cost.known && o.cost.rented) text.then(Message("recommend.rent").usd("per_hour", o.cost.usd_per_hour, 2));
  else if (o.cost.known) text.then(Message("recommend.buy").usd("price", o.cost.purchase_usd, 0));
  if (o.cost.known && o.cost.usd_per_million_tokens > 0) text.then(Message("recommend.per_million_tokens").usd("per_million_tokens", o.cost.usd_per_million_tokens, 2));
  return text;
}

namespace {

bool allowed(const HardwareSpec& hw, Goal goal) {
  if (!hw.unsupported.id.empty() || !is_offered(hw)) return false;
  if (goal == Goal::local) return hw.kind != HardwareKind::instance;
  if (goal == Goal::laptop) return hw.kind == HardwareKind::laptop;
  return true;
}

FitOptions auto_fit(const HardwareSpec& hw, const ModelSpec& model) {
  FitOptions f;
  f.gpus = 0;
  if (hw.kind == HardwareKind::instance) {
    // An instance is paid for whole: run on all of its GPUs that the heads divide over.
    for (int n = std::max(1, hw.device_count); n >= 1; --n) {
      if (tensor_parallel_ok(model, n)) {
        f.gpus = n;
        break;
      }
    }
  }
  // A person stacks up to 4 consumer cards in one PC; workstation and datacenter boards take 8.
  f.max_gpus = hw.kind == HardwareKind::laptop ? 1 : (hw.segment == "consumer" ? 4 : 8);
  f.search_limits = false;
  f.pick_memory_option = true;  // a recommendation names the configuration to buy
  return f;
}

SpeedPlacement placement_of(const FitResult& fit) {
  SpeedPlacement p;
  p.gpus = fit.placement == Placement::cpu ? 0 : std::max(1, fit.gpus_used);
  if (fit.placement == Placement::offload) p.gpu_layers = fit.offload.gpu_layers;
  return p;
}

/// Sort key: smaller is better; unknown values go last.
double rank_value(const HardwareOption& o, Goal goal) {
  constexpr double kUnknown = 1e300;
  switch (goal) {
    case Goal::fastest:
    case Goal::laptop: return o.speed.known ? -o.speed.decode_tokens_per_s_total : kUnknown;
    case Goal::cheapest: return o.cost.known ? o.cost.usd_per_hour : kUnknown;
    case Goal::best_value:
    case Goal::local: return o.cost.known && o.cost.usd_per_million_tokens > 0 ? o.cost.usd_per_million_tokens : kUnknown;
  }
  return kUnknown;
}


}  // namespace

namespace {

/// evaluate_option without the sentence, the break-even among `rentals` (rented instances, catalog
/// order), into `o` (made in its place: an option is large, and CatalogOptions keeps thousands).
void evaluate_numbers(HardwareOption& o, const MemoryByDevices& memory, const HardwareSpec& hw, const OwnershipCosts& costs,
                      const HardwareSpec* const* rentals_begin, const HardwareSpec* const* rentals_end) {
  o.hardware = &hw;
  o.fit = fit_request(memory, hw, auto_fit(hw, memory.model()));
  if (!o.fit.fits) return;
  o.speed = estimate_throughput(memory.model(), memory.settings(), hw, placement_of(o.fit));
  const std::int64_t host_needed = hw.is_cpu() ? o.fit.required_bytes + kOsReserveBytes : 0;
  o.cost = option_cost_among(hw, o.fit.gpus_used, o.speed.decode_tokens_per_s_total, costs, rentals_begin, rentals_end,
                             o.fit.memory_option_bytes, host_needed);
}

/// The sentence of a fitting option, with the tight clause: less to spare than the margin is said,
/// so that no option reads as a comfortable fit.
Message listed_reason(const HardwareOption& o, const InferenceSettings& settings) {
  Message reason = option_reason(o, settings);
  if (o.fit.verdict == Verdict::tight) reason.then(Message("recommend.tight").bytes_1("margin", o.fit.margin_bytes));
  return reason;
}

bool by_gpu_id(const HardwareSpec* a, const HardwareSpec* b) {
  if (a->gpu_id != b->gpu_id) return a->gpu_id < b->gpu_id;
  return a < b;  // entries of one vector: catalog order
}

}  // namespace

HardwareOption evaluate_option(const MemoryByDevices& memory, const HardwareSpec& hw, const OwnershipCosts& costs,
                               const std::vector<HardwareSpec>& catalog) {
  const Rentals rentals = hw.kind == HardwareKind::gpu ? rentals_in(catalog) : Rentals();
  HardwareOption o;
  evaluate_numbers(o, memory, hw, costs, rentals.data(), rentals.data() + rentals.size());
  if (o.fit.fits) o.reason = listed_reason(o, memory.settings());
  return o;
}

CatalogOptions::CatalogOptions(const MemoryByDevices& memory, const std::vector<HardwareSpec>& catalog, const OwnershipCosts& costs)
    : memory_(memory), catalog_(catalog), costs_(costs), rentals_(rentals_in(catalog)), options_(catalog.size()) {
  std::sort(rentals_.begin(), rentals_.end(), by_gpu_id);
}

const HardwareOption& CatalogOptions::at(std::size_t index) const {
  if (!options_[index]) {
    const HardwareSpec& hw = catalog_[index];
    // The instances with this GPU (only an owned GPU has a break-even).
    const HardwareSpec* const* first = rentals_.data();
    const HardwareSpec* const* last = first;
    if (hw.kind == HardwareKind::gpu) {
      first = std::lower_bound(rentals_.data(), rentals_.data() + rentals_.size(), hw.id,
                               [](const HardwareSpec* r, const std::string& id) { return r->gpu_id < id; });
      last = first;
      while (last != rentals_.data() + rentals_.size() && (*last)->gpu_id == hw.id) ++last;
    }
    auto option = std::make_unique<HardwareOption>();
    evaluate_numbers(*option, memory_, hw, costs_, first, last);
    options_[index] = std::move(option);
  }
  return *options_[index];
}

Recommendation recommend_hardware(const MemoryByDevices& memory, const std::vector<HardwareSpec>& catalog, Goal goal,
                                  const OwnershipCosts& costs, std::size_t max_near_misses) {
  return recommend_hardware(CatalogOptions(memory, catalog, costs), goal, max_near_misses);
}

Recommendation recommend_hardware(const CatalogOptions& evaluated, Goal goal, std::size_t max_near_misses, std::size_t max_options) {
  Recommendation r;
  r.goal = goal;
  const MemoryByDevices& memory = evaluated.memory();
  const std::vector<HardwareSpec>& catalog = evaluated.catalog();
  const ModelSpec& model = memory.model();
  const InferenceSettings& settings = memory.settings();
  std::vector<NearMiss> misses;
  // The fitting options ranked by their keys and a pointer, then copied once in their order with
  // their sentence (sorting the options themselves moved each large struct a dozen times; a key
  // read per comparison was a tenth of a ten-fold catalog's ranking in WASM).
  struct Ranked {
    double key;    ///< rank_value: smaller is better
    double speed;  ///< ties: the faster first
    const HardwareOption* option;
  };
  std::vector<Ranked> fitting;
  fitting.reserve(catalog.size());
  for (std::size_t i = 0; i < catalog.size(); ++i) {
    const HardwareSpec& hw = catalog[i];
    if (!allowed(hw, goal)) continue;
    const HardwareOption& o = evaluated.at(i);
    if (!o.fit.fits) {
      NearMiss miss;
      miss.hardware = &hw;
      miss.fit = o.fit;
      misses.push_back(std::move(miss));
      continue;
    }
    fitting.push_back({rank_value(o, goal), o.speed.decode_tokens_per_s_total, &o});
  }
  stable_sort_by(fitting, [](const Ranked& a, const Ranked& b) {
    if (a.key != b.key) return a.key < b.key;
    return a.speed > b.speed;
  });
  r.options_total = fitting.size();
  if (fitting.size() > max_options) fitting.resize(max_options);
  r.options.reserve(fitting.size());
  for (const Ranked& ranked : fitting) {
    HardwareOption& listed = r.options.emplace_back(*ranked.option);
    listed.reason = listed_reason(listed, settings);
  }

  // Nearest misses: the smallest shortfall relative to what the option offers.
  auto shortfall = [](const NearMiss& m) {
    return m.fit.usable_bytes > 0 ? static_cast<double>(m.fit.required_bytes) / static_cast<double>(m.fit.usable_bytes) : 1e300;
  };
  stable_sort_by(misses, [&](const NearMiss& a, const NearMiss& b) { return shortfall(a) < shortfall(b); });
  if (misses.size() > max_near_misses) misses.resize(max_near_misses);

  // What would make each fit: a smaller weight format, a shorter context, partial offload.
  std::vector<std::pair<const WeightFormat*, std::unique_ptr<MemoryByDevices>>> smaller;
  for (const char* id : {"int8", "int4"}) {
    const WeightFormat* f = find_weight_format(id);
    if (f != nullptr && f->bits_per_weight() < settings.weights->bits_per_weight()) {
      InferenceSettings s = settings;
      s.weights = f;
      smaller.emplace_back(f, std::make_unique<MemoryByDevices>(model, s, EstimateDetail::bytes_only));
    }
  }
  for (auto& miss : misses) {
    const HardwareSpec& hw = *miss.hardware;
    FitOptions f = auto_fit(hw, model);
    for (const auto& [format, table] : smaller) {
      const FitResult other = fit_request(*table, hw, f);
      if (other.fits) {
        Message fix = Message("recommend.fix.format").text("format", format->id);
        if (other.gpus_used > 1) fix.then(Message("recommend.fix.on_gpus").integer("gpus", other.gpus_used));
        if (other.memory_option_bytes > 0) fix.then(Message("recommend.fix.configuration").memory_size("memory", other.memory_option_bytes));
        fix.then(Message("recommend.fix.to_spare").bytes_1("headroom", other.headroom_bytes));
        miss.fixes.push_back(std::move(fix));
        break;
      }
    }
    const int n = hw.is_cpu() ? 0 : (hw.kind == HardwareKind::instance ? hw.device_count : 1);
    if (n <= 1 || tensor_parallel_ok(model, n)) {
      std::int64_t usable = miss.fit.usable_bytes;
      if (hw.unified_memory) usable += memory.at(1).parts.overhead;
      const std::int64_t limit = model.max_position_embeddings > 0 ? model.max_position_embeddings : 10'000'000;
      const std::int64_t context = max_context_that_fits(model, settings, n, usable, limit, hw.is_cuda_gpu());
      if (context > 0) miss.fixes.push_back(Message("recommend.fix.context").integer("tokens", context));
    }
    if (miss.fit.offload_possible) {
      SpeedPlacement p;
      p.gpus = 1;
      p.gpu_layers = miss.fit.offload.gpu_layers;
      const Throughput t = estimate_throughput(model, settings, hw, p);
      miss.fixes.push_back(Message("recommend.fix.offload").integer("gpu_layers", miss.fit.offload.gpu_layers).integer("layers", model.num_layers)
                               .decimal("tokens_per_s", t.decode_tokens_per_s, 1));
    }
    miss.reason = miss.fit.allocator_out_of_memory
                      ? Message("recommend.allocator_runs_out").bytes_1("headroom", miss.fit.headroom_bytes)
                      : Message(hw.is_cpu() ? "recommend.short_of_ram" : "recommend.short_per_device").bytes_1("short", -miss.fit.headroom_bytes);
    if (hw.unified_memory) miss.reason.then(Message("recommend.largest_configuration").memory_size("memory", miss.fit.memory_option_bytes));
  }
  r.near_misses = std::move(misses);
  return r;
}

}  // namespace llmsizer
