// SPDX-License-Identifier: MIT
#include "llmsizer/hardware.hpp"

#include <algorithm>
#include <optional>

#include "llmsizer/caching_allocator.hpp"
#include "llmsizer/largest_fitting.hpp"
#include "llmsizer/precision.hpp"

namespace llmsizer {

const char* hardware_kind_id(HardwareKind kind) {
  switch (kind) {
    case HardwareKind::gpu: return "gpu";
    case HardwareKind::cpu: return "cpu";
    case HardwareKind::instance: return "instance";
    case HardwareKind::laptop: return "laptop";
  }
  return "gpu";
}

const char* operating_system_id(OperatingSystem os) {
  switch (os) {
    case OperatingSystem::unspecified: return "";
    case OperatingSystem::macos: return "macos";
    case OperatingSystem::windows: return "windows";
    case OperatingSystem::linux_os: return "linux";
  }
  return "";
}

const char* placement_id(Placement placement) {
  switch (placement) {
    case Placement::gpu: return "gpu";
    case Placement::multi_gpu: return "multi-gpu";
    case Placement::unified: return "unified-memory";
    case Placement::cpu: return "cpu";
    case Placement::offload: return "offload";
    case Placement::none: return "none";
  }
  return "none";
}

const char* verdict_id(Verdict verdict) {
  switch (verdict) {
    case Verdict::comfortable: return "comfortable";
    case Verdict::tight: return "tight";
    case Verdict::offload: return "offload";
    case Verdict::no_fit: return "no_fit";
  }
  return "no_fit";
}

std::int64_t fit_margin_bytes(std::int64_t usable_bytes) {
  const auto share = static_cast<std::int64_t>(static_cast<double>(std::max<std::int64_t>(0, usable_bytes)) * kFitMarginFraction);
  return std::max(kFitMarginFloorBytes, share);
}

Verdict memory_verdict(std::int64_t headroom_bytes, std::int64_t margin_bytes) {
  if (headroom_bytes < 0) return Verdict::no_fit;
  return headroom_bytes >= margin_bytes ? Verdict::comfortable : Verdict::tight;
}

bool choose_memory_option(HardwareSpec& hw, std::int64_t bytes) {
  const auto at = std::find(hw.memory_options_bytes.begin(), hw.memory_options_bytes.end(), bytes);
  if (at == hw.memory_options_bytes.end()) return false;
  const auto index = static_cast<std::size_t>(at - hw.memory_options_bytes.begin());
  if (index < hw.memory_option_prices_usd.size()) {
    hw.price_usd = hw.memory_option_prices_usd[index];
    hw.memory_option_prices_usd = {hw.price_usd};
  }
  hw.memory_options_bytes = {bytes};
  return true;
}

void copy_accelerator_figures(HardwareSpec& to, const HardwareSpec& from) {
  to.memory_bandwidth_gb_per_s = from.memory_bandwidth_gb_per_s;
  to.matrix_tflops = from.matrix_tflops;
  to.fp8_tflops = from.fp8_tflops;
  to.fp4_tflops = from.fp4_tflops;
  to.achievable_matrix_tflops = from.achievable_matrix_tflops;
  to.achievable_fp8_tflops = from.achievable_fp8_tflops;
  to.fp32_tflops = from.fp32_tflops;
  to.link_gb_per_s = from.link_gb_per_s;
  to.pcie_gb_per_s = from.pcie_gb_per_s;
  to.tdp_w = from.tdp_w;
}

bool is_apple(const HardwareSpec& hw) { return hw.vendor == "Apple" || hw.segment == "apple-silicon"; }

int max_devices(const HardwareSpec& hw) {
  if (hw.is_cpu()) return 0;
  if (hw.unified_memory || hw.kind == HardwareKind::laptop) return 1;
  if (hw.kind == HardwareKind::instance || hw.is_machine) return std::max(1, hw.device_count);
  return hw.segment == "consumer" ? 4 : 8;
}

double apple_gpu_working_set_fraction(std::int64_t ram_bytes) {
  constexpr std::int64_t kSmallMacBytes = 36LL << 30;
  return ram_bytes <= kSmallMacBytes ? 2.0 / 3.0 : 3.0 / 4.0;
}

std::int64_t usable_device_bytes(const HardwareSpec& hw, std::int64_t physical_bytes) {
  if (hw.unified_memory) {
    if (hw.gpu_memory_limit_bytes > 0) return std::min(hw.gpu_memory_limit_bytes, physical_bytes);
    // NVIDIA's unified memory (DGX Spark's GB10): CUDA may allocate all memory the operating system
    // does not hold (its total as CUDA reports it, catalogued), so the OS's reserve comes off that,
    // not AMD's half.
    if (hw.cuda_total_bytes > 0 && physical_bytes == hw.device_memory_bytes) {
      return std::max<std::int64_t>(0, std::min(hw.cuda_total_bytes, physical_bytes) - kOsReserveBytes);
    }
    if (!is_apple(hw)) return physical_bytes / 2;  // kAmdUnifiedGpuFraction
    // Whole bytes: 2/3 or 3/4 of the RAM (apple_gpu_working_set_fraction), in integer arithmetic.
    return apple_gpu_working_set_fraction(physical_bytes) < 0.7 ? physical_bytes / 3 * 2 : physical_bytes / 4 * 3;
  }
  // A measured CUDA total already leaves out what the driver reserves (and any ECC carve-out).
  const bool measured_total = hw.cuda_total_bytes > 0 && physical_bytes == hw.device_memory_bytes;
  std::int64_t bytes = measured_total ? hw.cuda_total_bytes : physical_bytes;
  if (hw.ecc_carveout && !measured_total) bytes -= physical_bytes / 16;
  if (hw.drives_display) bytes -= kDisplayReserveBytes;
  return std::max<std::int64_t>(0, bytes);
}

bool drives_display_by_segment(std::string_view segment) { return segment == "consumer"; }

bool ecc_carveout_by(std::string_view segment, std::string_view memory_type) {
  return segment == "datacenter" && memory_type.find("GDDR") != std::string_view::npos;
}

double unified_matrix_tflops(std::string_view segment, double matrix_tflops, double fp32_tflops) {
  return matrix_tflops <= 0 && segment == "apple-silicon" ? fp32_tflops : matrix_tflops;
}

int gpus_estimated_on(const HardwareSpec& hw, int requested_gpus) { return hw.is_cpu() ? 0 : requested_gpus; }

bool neuron_only_accelerator(std::string_view accelerator_model) { return accelerator_model.find("Inferentia") != std::string_view::npos; }

std::int64_t usable_host_bytes(std::int64_t ram_bytes) { return std::max<std::int64_t>(0, ram_bytes - kOsReserveBytes); }

MemoryByDevices::MemoryByDevices(const ModelSpec& model, const InferenceSettings& settings, EstimateDetail detail)
    : MemoryByDevices(model, settings, weights_layout(model, *settings.weights, settings.group_size), detail) {}

MemoryByDevices::MemoryByDevices(const ModelSpec& model, const InferenceSettings& settings, WeightsLayout layout, EstimateDetail detail)
    : model_(model), layout_(std::move(layout)), counts_(count_model(model)), estimate_cache_(model, layout_), detail_(detail), settings_(settings) {
  settings_.weights_layout = &layout_;
  settings_.model_counts = &counts_;
  settings_.cache = &estimate_cache_;
  InferenceSettings on_gpus = settings_;
  on_gpus.gpus = std::max(1, settings_.gpus);
  allocator_replay_applies_ = allocator_replay_applies(model_, on_gpus);
}

const MemoryEstimate& MemoryByDevices::at(int gpus) const {
  const auto index = static_cast<std::size_t>(std::max(0, gpus));
  if (index >= cache_.size()) {
    cache_.resize(index + 1);
    done_.resize(index + 1, false);
  }
  if (!done_[index]) {
    InferenceSettings s = settings_;
    s.gpus = gpus;
    cache_[index] = estimate_inference_memory(model_, s, detail_);
    done_[index] = true;
  }
  return cache_[index];
}

bool allocator_runs_out(const ModelSpec& model, const InferenceSettings& settings, const MemoryEstimate& estimate,
                        std::int64_t usable_bytes) {
  if (settings.gpus < 1 || estimate.device_bytes > usable_bytes || !allocator_replay_applies(model, settings)) return false;
  return replay_transformers_prefill(model, settings, estimate, allocator_capacity_bytes(estimate, usable_bytes)).out_of_memory;
}

bool MemoryByDevices::allocator_runs_out(int gpus, std::int64_t usable_bytes) const {
  if (gpus < 1 || !allocator_replay_applies_) return false;
  const MemoryEstimate& e = at(gpus);
  if (e.device_bytes > usable_bytes) return false;
  InferenceSettings s = settings_;
  s.gpus = gpus;
  const auto index = static_cast<std::size_t>(gpus);
  if (index >= unbounded_reserved_.size()) unbounded_reserved_.resize(index + 1, -1);
  if (unbounded_reserved_[index] < 0) {
    unbounded_reserved_[index] = replay_transformers_prefill(model_, s, e, CachingAllocator::kUnbounded).peak_reserved_bytes;
  }
  // With room for every segment the unbounded replay takes, no cudaMalloc fails: the bounded replay
  // would be the same one.
  const std::int64_t capacity = allocator_capacity_bytes(e, usable_bytes);
  if (capacity >= unbounded_reserved_[index]) return false;
  // Less room never helps, more never hurts (as the searches assume of memory): a capacity at or below
  // one that ran out runs out, one at or above one that held holds.
  for (const BoundedReplay& b : bounded_) {
    if (b.gpus != gpus) continue;
    if (b.out_of_memory && capacity <= b.capacity_bytes) return true;
    if (!b.out_of_memory && capacity >= b.capacity_bytes) return false;
  }
  const bool out = replay_transformers_prefill(model_, s, e, capacity).out_of_memory;
  bounded_.push_back({gpus, capacity, out});
  return out;
}

bool tensor_parallel_ok(const ModelSpec& model, int gpus) {
  if (gpus <= 1 || !model.has_architecture()) return true;
  if (model.num_attention_heads % gpus != 0) return false;
  const int kv = std::max(1, model.num_kv_heads);
  return kv % gpus == 0 || gpus % kv == 0;
}

namespace {

std::int64_t needed_bytes(const MemoryEstimate& e, int gpus) { return gpus == 0 ? e.host_bytes : e.device_bytes; }

/** The settings of one search over `gpus` devices, with the weights laid out and the model
 *  counted once for all its estimates (unless the caller's settings already carry them). */
class SearchSettings {
 public:
  SearchSettings(const ModelSpec& model, const InferenceSettings& settings, int gpus) : model_(model), settings_(settings) {
    settings_.gpus = gpus;
    if (settings_.weights_layout == nullptr) {
      layout_ = weights_layout(model, *settings.weights, settings.group_size);
      settings_.weights_layout = &layout_;
    }
    if (settings_.model_counts == nullptr) {
      counts_ = count_model(model);
      settings_.model_counts = &counts_;
    }
    // The caller's cache where it is this model's and layout's (MemoryByDevices'), else one of its own.
    const EstimateCache* given = settings_.cache;
    if (given == nullptr || given->model != &model || given->layout != settings_.weights_layout) {
      cache_.emplace(model, *settings_.weights_layout);
      settings_.cache = &*cache_;
    }
  }
  SearchSettings(const SearchSettings&) = delete;  // settings_ points into layout_, counts_ and cache_
  SearchSettings& operator=(const SearchSettings&) = delete;
  InferenceSettings& settings() { return settings_; }
  /// What the search compares: its estimate's bytes on the device (or in RAM at 0 GPUs). Bytes
  /// only: a search says none of its estimates' sentences.
  std::int64_t needed() const { return needed_bytes(estimate(), settings_.gpus); }
  MemoryEstimate estimate() const { return estimate_inference_memory(model_, settings_, EstimateDetail::bytes_only); }
  /// On a CUDA device, whether PyTorch's caching allocator does not run out (allocator_runs_out).
  bool allocator_holds(std::int64_t usable_bytes, bool cuda_device) const {
    return !cuda_device || !allocator_replay_applies(model_, settings_) || !allocator_runs_out(model_, settings_, estimate(), usable_bytes);
  }

 private:
  const ModelSpec& model_;
  WeightsLayout layout_;
  ModelCounts counts_;
  std::optional<EstimateCache> cache_;
  InferenceSettings settings_;
};


}  // namespace

std::int64_t max_context_that_fits(const ModelSpec& model, const InferenceSettings& settings, int gpus,
                                   std::int64_t usable_bytes, std::int64_t limit, bool cuda_device) {
  SearchSettings search(model, settings, gpus);
  auto needed = [&](std::int64_t input) {
    search.settings().input_tokens = input;
    return search.needed();
  };
  auto allocator_holds = [&](std::int64_t input) {
    search.settings().input_tokens = input;
    return search.allocator_holds(usable_bytes, cuda_device);
  };
  const std::int64_t max_input = limit - settings.output_tokens;
  if (max_input < 1) return 0;
  const auto last_alike = [&](std::int64_t input) { return last_input_of_same_cache(search.settings(), input); };
  const std::int64_t input = largest_within_both(1, max_input, usable_bytes, needed, allocator_holds, kAllocatorSearchStepTokens, last_alike);
  return input < 1 ? 0 : input + settings.output_tokens;
}

std::int64_t max_batch_that_fits(const ModelSpec& model, const InferenceSettings& settings, int gpus,
                                 std::int64_t usable_bytes, std::int64_t limit, bool cuda_device) {
  SearchSettings search(model, settings, gpus);
  auto needed = [&](std::int64_t batch) {
    search.settings().batch = batch;
    return search.needed();
  };
  auto allocator_holds = [&](std::int64_t batch) {
    search.settings().batch = batch;
    return search.allocator_holds(usable_bytes, cuda_device);
  };
  // Beyond the batch where the memory stops growing every batch needs what that one needs: the
  // search ends there, and where that batch fits, so does the limit.
  const std::int64_t steady = batch_where_memory_stops_growing(model, search.settings());
  const std::int64_t hi = steady > 0 ? std::min(limit, steady) : limit;
  const std::int64_t found = largest_within_both(1, hi, usable_bytes, needed, allocator_holds);
  return std::max<std::int64_t>(0, found == hi ? limit : found);
}

OffloadSplit offload_split(const ModelSpec& model, const InferenceSettings& settings, const MemoryEstimate& one_gpu,
                           std::int64_t usable_gpu_bytes) {
  OffloadSplit split;
  const int layers = model.num_layers;
  if (layers <= 0) return split;
  const ParamCounts params = settings.model_counts != nullptr ? settings.model_counts->params : count_params(model);
  const WeightFormat& w = *settings.weights;
  auto bytes_of = [&](std::int64_t n) { return bytes_for_elements(n, w.block_elements, w.block_bytes); };
  // Decoder layers are alike; the final norm is counted with them (a few kB).
  const std::int64_t layer_weights = bytes_of((params.per_layer_attention + params.per_layer_mlp + params.norms) / layers);
  const std::int64_t layer_kv = one_gpu.parts.kv_cache / layers;
  const std::int64_t per_layer = layer_weights + layer_kv;
  // llama.cpp keeps the token embeddings in RAM (the lookup runs on the CPU) and the output layer
  // on the GPU; a tied output layer is the embedding matrix used a second time.
  const std::int64_t embedding = bytes_of(params.embedding);
  const std::int64_t output = bytes_of(params.lm_head > 0 ? params.lm_head : params.embedding);
  const std::int64_t fixed = one_gpu.parts.overhead + one_gpu.parts.activations + output;
  std::int64_t gpu_layers = 0;
  if (usable_gpu_bytes > fixed && per_layer > 0) gpu_layers = std::min<std::int64_t>(layers, (usable_gpu_bytes - fixed) / per_layer);
  split.gpu_layers = static_cast<int>(gpu_layers);
  split.cpu_layers = layers - split.gpu_layers;
  split.gpu_bytes = fixed + gpu_layers * per_layer;
  split.host_bytes = embedding + bytes_of(model.extra_params) + split.cpu_layers * per_layer;
  return split;
}

FitResult fit_request(const MemoryByDevices& memory, const HardwareSpec& hw, const FitOptions& options) {
  FitResult r;
  const ModelSpec& model = memory.model();
  const InferenceSettings& settings = memory.settings();
  const std::int64_t context_limit = model.max_position_embeddings > 0 ? model.max_position_embeddings : 10'000'000;
  constexpr std::int64_t kBatchLimit = 1'000'000;
  int search_gpus = 1;
  std::int64_t search_usable = 0;

  if (hw.is_cpu()) {
    const MemoryEstimate& e = memory.at(0);
    r.placement = Placement::cpu;
    r.gpus_needed = 0;
    r.required_bytes = e.host_bytes;
    r.usable_bytes = usable_host_bytes(hw.host_memory_bytes);
    r.fits = r.required_bytes <= r.usable_bytes;
    search_gpus = 0;
    search_usable = r.usable_bytes;
  } else if (hw.unified_memory) {
    // Metal has no CUDA context: the GPU holds the tensors (weights, cache, compute buffers).
    const MemoryEstimate& e = memory.at(1);
    r.placement = Placement::unified;
    r.gpus_needed = 1;
    r.gpus_used = 1;
    r.required_bytes = e.device_bytes - e.parts.overhead;
    std::vector<std::int64_t> configs = hw.memory_options_bytes;
    if (configs.empty()) configs.push_back(hw.device_memory_bytes);
    std::sort(configs.begin(), configs.end());
    r.memory_option_bytes = configs.front();
    if (options.pick_memory_option) {
      // The smallest configuration that fits comfortably, else the smallest that fits, else the largest.
      auto first = [&](bool comfortable) -> std::int64_t {
        for (std::int64_t c : configs) {
          const std::int64_t usable = usable_device_bytes(hw, c);
          const std::int64_t need = r.required_bytes + (comfortable ? fit_margin_bytes(usable) : 0);
          if (usable >= need) return c;
        }
        return 0;
      };
      const std::int64_t comfortable = first(true);
      const std::int64_t any = first(false);
      r.memory_option_bytes = comfortable > 0 ? comfortable : any > 0 ? any : configs.back();
    }
    r.usable_bytes = usable_device_bytes(hw, r.memory_option_bytes);
    r.fits = r.required_bytes <= r.usable_bytes;
    search_usable = r.usable_bytes + e.parts.overhead;
  } else {
    // The count it may need: what the hardware has, or for cards bought by the piece what one
    // machine takes (a request may still ask for more of them: gpus is then its own count).
    const bool fixed_count = hw.kind == HardwareKind::instance || hw.is_machine || hw.kind == HardwareKind::laptop;
    const int max_gpus = fixed_count ? max_devices(hw) : std::max(1, std::min(options.max_gpus, max_devices(hw)));
    r.usable_bytes = usable_device_bytes(hw, hw.device_memory_bytes);
    auto fits_on = [&](int n) {
      return gpus_ok(model, memory.settings().engine, n) && memory.at(n).device_bytes <= r.usable_bytes && !memory.allocator_runs_out(n, r.usable_bytes);
    };
    r.gpus_needed = 0;
    for (int n = 1; n <= max_gpus; ++n) {
      if (fits_on(n)) {
        r.gpus_needed = n;
        break;
      }
    }
    const int n = options.gpus > 0 ? options.gpus : (r.gpus_needed > 0 ? r.gpus_needed : 1);
    r.gpus_used = n;
    r.required_bytes = memory.at(n).device_bytes;
    r.fits = fits_on(n) && (!fixed_count || n <= max_gpus);
    r.allocator_out_of_memory = memory.allocator_runs_out(n, r.usable_bytes);
    r.placement = r.fits ? (n > 1 ? Placement::multi_gpu : Placement::gpu) : Placement::none;
    search_gpus = n;
    search_usable = r.usable_bytes;
    if (!r.fits && n == 1) {
      // Offload splits one GPU's layers with RAM (llama.cpp -ngl; accelerate device_map="auto").
      r.offload = offload_split(model, settings, memory.at(1), r.usable_bytes);
      const std::int64_t ram = hw.host_memory_bytes > 0 ? hw.host_memory_bytes : kAssumedHostRamBytes;
      // cpu_layers may be 0: all layers on the GPU once the token embeddings stay in RAM. A plan
      // with no decoder layer on the GPU, or whose GPU part (the compute buffer and the output
      // layer) is already more than the GPU holds, is no offload.
      r.offload_possible = model.num_layers > 0 && r.offload.gpu_layers > 0 && r.offload.gpu_bytes <= r.usable_bytes &&
                           r.offload.host_bytes <= usable_host_bytes(ram);
      if (!r.fits && r.offload_possible) r.placement = Placement::offload;
    }
  }
  r.headroom_bytes = r.usable_bytes - r.required_bytes;
  r.margin_bytes = fit_margin_bytes(r.usable_bytes);
  r.verdict = r.fits ? memory_verdict(r.headroom_bytes, r.margin_bytes) : (r.placement == Placement::offload ? Verdict::offload : Verdict::no_fit);
  if (r.verdict == Verdict::no_fit) r.placement = Placement::none;  // the plan says what the verdict says
  if (options.search_limits) {
    r.max_context = max_context_that_fits(model, settings, search_gpus, search_usable, context_limit, hw.is_cuda_gpu());
    r.max_context_is_model_limit = r.max_context == context_limit && model.max_position_embeddings > 0;
    r.max_batch = max_batch_that_fits(model, settings, search_gpus, search_usable, kBatchLimit, hw.is_cuda_gpu());
  } else {
    r.max_context = -1;
    r.max_batch = -1;
  }
  return r;
}

}  // namespace llmsizer
