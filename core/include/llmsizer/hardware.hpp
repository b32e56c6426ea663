// SPDX-License-Identifier: MIT
#pragma once
/// Hardware: what a GPU, CPU, laptop or cloud instance offers (memory, bandwidth, compute, price),
/// how much of its memory a model may really use, and whether a request fits — on one GPU, on
/// several with tensor parallelism, in CPU RAM, in Apple unified memory, or split between GPU and
/// RAM (llama.cpp `-ngl` partial offload). Plain structs and pure functions; the catalog itself
/// is parsed at the edge (hardware_json.cpp) from data/hardware/*.json.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "llmsizer/estimate_cache.hpp"
#include "llmsizer/memory.hpp"
#include "llmsizer/message.hpp"
#include "llmsizer/quantization.hpp"
#include "llmsizer/model.hpp"
#include "llmsizer/verdict.hpp"

namespace llmsizer {

enum class HardwareKind { gpu, cpu, instance, laptop };
const char* hardware_kind_id(HardwareKind kind);

/// The operating system of a person's own machine (request `machine.os`): it decides how much of
/// unified memory the GPU gets (macOS: Metal's working set; Linux, Windows: AMD's share) and what
/// a discrete GPU does when it runs out (Windows' NVIDIA driver spills into system memory).
enum class OperatingSystem { unspecified, macos, windows, linux_os };  // not `linux`: a macro in GNU C++
const char* operating_system_id(OperatingSystem os);

/** One catalog entry (or an inline `hardware` object of a request). Units are in the names;
 *  0 means "not known". For an instance or a laptop the accelerator fields are its GPU's. */
struct HardwareSpec {
  std::string id;
  std::string name;
  HardwareKind kind = HardwareKind::gpu;
  std::string vendor;
  std::string segment;             ///< consumer, workstation, datacenter, apple-silicon, desktop, laptop, server, cloud

  // The accelerator. A CPU entry has none (`device_count` 0).
  int device_count = 1;            ///< GPUs (an instance's gpu_count); 0 for a CPU
  std::int64_t device_memory_bytes = 0;  ///< per device, as printed by the vendor, read as GiB (hardware-sources.md §1)
  std::vector<std::int64_t> memory_options_bytes;  ///< Apple unified-memory configurations (ascending)
  bool unified_memory = false;     ///< Apple silicon, AMD Strix Halo: the GPU uses system RAM up to a limit
  /// Unified memory: the GPU's limit as the person set it (macOS `sysctl iogpu.wired_limit_mb`,
  /// AMD's dedicated graphics memory or Linux `ttm.pages_limit`); 0: the operating system's default.
  std::int64_t gpu_memory_limit_bytes = 0;
  /// The person's own machine (request `machine`): its GPU count is what it has, never more.
  bool is_machine = false;
  OperatingSystem os = OperatingSystem::unspecified;  ///< my machine's, when said
  /// Where the speed figures come from when they are not the device's own (my machine: a base's,
  /// a typical device's of its class); empty id: the entry's own figures.
  Message speed_basis;
  bool drives_display = false;     ///< a desktop or laptop GPU that also draws the desktop
  bool ecc_carveout = false;       ///< GDDR datacenter part with ECC on: 1/16 of the DRAM holds check bits
  /// What CUDA reports as the device's total (cudaMemGetInfo; PyTorch's "total capacity"), when
  /// measured: the vendor's figure less the framebuffer the driver reserves. 0: not measured.
  /// Catalogued for headless datacenter cards only: on a card that draws a desktop, the display
  /// reserve (measured as nvidia-smi's used memory at idle, which includes the driver's share)
  /// already covers it.
  std::int64_t cuda_total_bytes = 0;
  double memory_bandwidth_gb_per_s = 0;  ///< per device, theoretical peak, 1e9 B/s
  double matrix_tflops = 0;        ///< dense FP16/BF16 tensor throughput, FP32 accumulate, 1e12 FLOP/s
  /// Dense FP8 and FP4 tensor throughput, 1e12 FLOP/s, as the vendor's datasheet gives them (its
  /// sparse figures halved); 0: not published or not supported (an A100 has no FP8 tensor cores).
  /// What FP8/FP4 kernels (fp8, nvfp4, mxfp4 weights) can reach where compute bounds a step.
  double fp8_tflops = 0;
  double fp4_tflops = 0;
  /// What the vendor measured a large GEMM to sustain (AMD's "max-achievable FLOPs": the clock under
  /// dense load, its libraries' efficiency), 16-bit and FP8, 1e12 FLOP/s; 0: not published, the
  /// datasheet peak × kGpuMatmulEfficiency stands for it.
  double achievable_matrix_tflops = 0;
  double achievable_fp8_tflops = 0;
  double fp32_tflops = 0;          ///< non-tensor FP32 peak
  double link_gb_per_s = 0;        ///< device-to-device, per direction (NVLink, else PCIe), 1e9 B/s
  double pcie_gb_per_s = 0;        ///< host link, per direction
  double tdp_w = 0;                ///< per device (board power)

  // The host (CPU and its RAM): a CPU entry's own figures, an instance's RAM, or assumptions.
  std::int64_t host_memory_bytes = 0;    ///< RAM; a CPU entry: its maximum supported RAM
  double host_bandwidth_gb_per_s = 0;    ///< CPU memory bandwidth, theoretical peak
  double host_tflops = 0;                ///< CPU matrix throughput (estimate from cores × SIMD width)
  int cpu_cores = 0;
  bool avx512 = false;
  bool amx = false;

  // Price.
  double price_usd = 0;            ///< purchase price of one device (launch MSRP; a laptop: its cheapest), 0 when unknown
  std::vector<double> memory_option_prices_usd;  ///< laptop: list price of each of `memory_options_bytes`
  double power_w = 0;              ///< laptop: drawn from the wall at full load (its adapter's rating)
  double price_usd_per_hour = 0;   ///< rental price of the whole instance, 0 when not rented
  std::string price_date;
  std::string price_source;        ///< where the price comes from (laptops: list price, date, page)
  std::string gpu_id;              ///< instance or laptop: the catalog id of its GPU

  // Measured values (data/measured probe files) override the datasheet when present.
  double measured_bandwidth_gb_per_s = 0;
  double measured_tflops = 0;
  std::string measured_source;

  std::string source;              ///< where the facts come from
  Message unsupported;             ///< why the entry cannot run the usual CUDA/Metal/CPU engines (empty id: it can)

  bool is_cpu() const { return device_count == 0; }
  /// CUDA GPUs, where PyTorch's caching allocator hands out the memory (not the CPU, not unified memory).
  bool is_cuda_gpu() const { return !is_cpu() && !unified_memory; }
  bool is_rented() const { return price_usd_per_hour > 0; }
};


/// Reserve for the desktop a GPU also draws (compositor, browser, desktop apps): an RTX 5090 on a
/// Windows desktop with no model loaded showed a median of 1,585.5 MiB used (nvidia-smi, four
/// readings, github.com/nibor1896/Crow issue #105, 2026). 1.5 GiB is taken for consumer cards and
/// laptop GPUs; datacenter, workstation and cloud GPUs are treated as headless.
constexpr std::int64_t kDisplayReserveBytes = 3LL << 29;
/// RAM kept for the operating system and other programs when a model runs on the CPU or spills
/// into RAM: 4 GiB, what Windows 11 itself requires ("RAM: 4 gigabyte (GB) or greater",
/// Microsoft's Windows 11 specifications and system requirements; a desktop OS with a browser
/// holds about 3-4 GiB).
constexpr std::int64_t kOsReserveBytes = 4LL << 30;
/// Dual-channel DDR5 desktop host assumed behind a desktop GPU or a Windows laptop for offloaded
/// layers, and for a machine whose CPU is not named: 83.2 GB/s (catalog amd-ryzen-9-7950x,
/// DDR5-5200 × 2 channels × 8 B, JEDEC JESD79-5).
constexpr double kAssumedHostBandwidthGbPerS = 83.2;
/// All-core clock assumed for CPU compute (the catalog has no clocks): 3.0 GHz.
constexpr double kAssumedCpuClockGhz = 3.0;

/// Peak CPU matrix throughput from cores × clock × FLOPs per cycle and core: AMX BF16 tiles 1024
/// (Intel: 2048 INT8 / 1024 BF16 ops per cycle per core), AVX-512 with two FMA units 64 FP32,
/// AVX2 with two FMA units 32 FP32 (16 lanes × 2 per FMA). TFLOPS.
constexpr double cpu_tflops(int cores, bool avx512, bool amx) {
  return cores * kAssumedCpuClockGhz * 1e9 * (amx ? 1024.0 : (avx512 ? 64.0 : 32.0)) / 1e12;
}

/// RAM assumed for a desktop GPU's or a Windows laptop's host PC, whose RAM the catalog does not
/// give (hardware-sources.md: "System RAM is separate (typically 16-64 GB DDR5)"): 32 GiB.
constexpr std::int64_t kAssumedHostRamBytes = 32LL << 30;
/// Cores of the desktop host assumed beside a catalog GPU: catalog amd-ryzen-9-7950x, 16 Zen 4
/// cores with AVX-512 (cpu_tflops).
constexpr int kAssumedHostCores = 16;

/** What a catalog entry's published figures imply beyond themselves, decided here rather than by
 *  the catalog's reader (which only reads):
 *  - a consumer GPU also draws the desktop (kDisplayReserveBytes); datacenter, workstation and cloud
 *    GPUs are taken as headless;
 *  - a datacenter GPU with GDDR memory runs ECC in band, 1/16 of its DRAM holding check bits (NVIDIA
 *    A10/L4/L40S datasheets' memory with ECC on; HBM parts keep ECC out of band);
 *  - an Apple GPU's FP16 matrix rate is its FP32 rate: Apple publishes none, and its GPUs run FP16
 *    FMAs at the FP32 rate (Apple's Metal feature tables); a chip with tensor cores (GB10) is not so;
 *  - an AWS Inferentia instance runs only the Neuron SDK, none of the engines the estimate models. */
bool drives_display_by_segment(std::string_view segment);
bool ecc_carveout_by(std::string_view segment, std::string_view memory_type);
double unified_matrix_tflops(std::string_view segment, double matrix_tflops, double fp32_tflops);
bool neuron_only_accelerator(std::string_view accelerator_model);
/// The GPUs a request on `hw` is estimated with: a CPU has none (everything in RAM, as its fit
/// places it, so that the breakdown adds up to the verdict's figure); else the request's.
int gpus_estimated_on(const HardwareSpec& hw, int requested_gpus);

/** Share of unified memory an AMD APU's GPU (Strix Halo, Ryzen AI) may use by default: half of
 *  RAM. Linux's amdgpu driver sizes its GTT pool to half of system memory unless `ttm.pages_limit`
 *  is raised (a 128 GB Ryzen AI Max+ 395 logs "63968M of GTT memory ready" and rocminfo caps at
 *  64 GB: github.com/antirez/ds4 issue #475; kyuz0/amd-strix-halo-toolboxes issue #98: "ROCm sees
 *  only ~63 GiB" of 124 without it); Windows' automatic setting on a 128 GB machine is "64/64"
 *  (lemonade-sdk/lemonade PR #842, docs/faq.md). */
constexpr double kAmdUnifiedGpuFraction = 0.5;

/** Share of Apple unified memory the GPU may wire by default (Metal's
 *  `recommendedMaxWorkingSetSize`): 2/3 of RAM up to 36 GiB, 3/4 above. llama.cpp logs show
 *  10922.67 MB on 16 GB Macs (ggml-org/llama.cpp#5206/#687 logs: 16384 × 2/3) and 21845.34 MB on
 *  32 GB (llama.cpp PR #2011, ollama#434: 32768 × 2/3), and 64 GB Macs fail above ~47-48 GB
 *  (llama.cpp issue #1870: 65536 × 3/4 = 49152 MiB). hardware-sources.md: "about 65-75% of RAM",
 *  raised with `sysctl iogpu.wired_limit_mb`. */
double apple_gpu_working_set_fraction(std::int64_t ram_bytes);

/** Memory a model may use on one device of `hw` with `physical_bytes` of memory: physical minus
 *  the ECC carve-out (1/16 on GDDR datacenter parts: an A10G's 24 GiB shows as 22888 MiB on AWS),
 *  minus the display reserve on a GPU that draws the desktop; in unified memory the GPU's share
 *  (Apple's working-set limit, AMD's GTT pool) or the limit the person set. The CUDA context is
 *  not subtracted: it is part of the estimate's `device_bytes`. */
std::int64_t usable_device_bytes(const HardwareSpec& hw, std::int64_t physical_bytes);

/// True for Apple silicon (its GPU share follows Metal's working-set limit).
bool is_apple(const HardwareSpec& hw);

/** Narrows a device sold in several memory configurations to the one of `bytes`: its only memory
 *  option then, at that option's price. False (and `hw` unchanged) when it is not sold so. */
bool choose_memory_option(HardwareSpec& hw, std::int64_t bytes);

/// Sets `to`'s accelerator figures (bandwidth, compute, links, board power) to `from`'s: a laptop's or
/// an instance's GPU, or my machine's typical device. Not its memory, price or measured values.
void copy_accelerator_figures(HardwareSpec& to, const HardwareSpec& from);

/** A device a person can buy or rent, listed and ranked: not a probe's record of the machine it
 *  ran on (data/measured: the project's build machine, a 2-thread cloud VM), which stays a device a
 *  request may name by its id and the probe's validation data. */
inline bool is_offered(const HardwareSpec& hw) { return hw.segment != "measured"; }

/** Most GPUs a request may use on `hw`: an instance's and a person's own machine's own count, one
 *  on a laptop, and for a card bought by the piece what fits one machine (a person stacks up to 4
 *  consumer cards in a PC; workstation and datacenter boards take 8). 0 for a CPU. */
int max_devices(const HardwareSpec& hw);

/// RAM a model may use on a host with `ram_bytes`: RAM minus kOsReserveBytes.
std::int64_t usable_host_bytes(std::int64_t ram_bytes);

/// Where the model runs.
enum class Placement {
  gpu,        ///< all on one GPU
  multi_gpu,  ///< tensor parallel over `gpus_needed` GPUs
  unified,    ///< Apple GPU in unified memory
  cpu,        ///< CPU only, in RAM
  offload,    ///< some layers on the GPU, the rest on the CPU in RAM (llama.cpp -ngl)
  none,       ///< does not fit
};
const char* placement_id(Placement placement);

/// A partial offload: decoder layers on the GPU and in RAM.
struct OffloadSplit {
  int gpu_layers = 0;
  int cpu_layers = 0;
  std::int64_t gpu_bytes = 0;   ///< on the GPU: runtime, compute buffer, output layer, gpu_layers
  std::int64_t host_bytes = 0;  ///< in RAM: token embeddings and cpu_layers
};

struct FitResult {
  bool fits = false;                ///< everything fits where `placement` says
  Placement placement = Placement::none;
  int gpus_needed = 0;              ///< devices that hold it (0: CPU only; the smallest count that fits)
  int gpus_used = 0;                ///< devices the fit was checked on (the request's count, or gpus_needed)
  std::int64_t required_bytes = 0;  ///< per device (or RAM for the CPU) at `gpus_needed`
  std::int64_t usable_bytes = 0;    ///< per device (or RAM)
  std::int64_t headroom_bytes = 0;  ///< usable − required (negative: short by that much)
  std::int64_t margin_bytes = 0;    ///< fit_margin_bytes(usable): below it a fit is "tight"
  Verdict verdict = Verdict::no_fit;  ///< comfortable, tight, offload (placement offload) or no_fit
  std::int64_t memory_option_bytes = 0;  ///< unified memory: the configuration the fit is for
  OffloadSplit offload;             ///< when it does not fit on the GPU(s): the -ngl split, if RAM holds the rest
  bool offload_possible = false;
  std::int64_t max_context = 0;     ///< longest input + output that fits at this batch (0: none; not searched: -1)
  std::int64_t max_batch = 0;       ///< most concurrent sequences that fit at this context
  bool max_context_is_model_limit = false;  ///< max_context stopped at the model's max_position_embeddings
  /// The bytes fit at gpus_used but PyTorch's caching allocator runs out there (allocator_runs_out).
  bool allocator_out_of_memory = false;
};

/** Memory estimates of one request per tensor-parallel size (0 = CPU), computed once on first use.
 *  Lets a recommendation test the whole catalog with a handful of estimates. Not shared between
 *  calls. Its settings carry the weights' layout and the model's counts (model.hpp: ModelCounts),
 *  made once for every estimate made with them. */
class MemoryByDevices {
 public:
  /// Lays the weights out once (the costly part of an estimate) for every estimate it makes.
  /// `detail`: what its estimates build (bytes_only where no estimate of it is said, as in a recommendation).
  MemoryByDevices(const ModelSpec& model, const InferenceSettings& settings, EstimateDetail detail = EstimateDetail::full);
  /// Uses `layout`, the weights already laid out in the settings' format and group size.
  MemoryByDevices(const ModelSpec& model, const InferenceSettings& settings, WeightsLayout layout,
                  EstimateDetail detail = EstimateDetail::full);
  /// The model is kept by reference: a temporary would dangle after the constructor.
  MemoryByDevices(ModelSpec&&, const InferenceSettings&, EstimateDetail = EstimateDetail::full) = delete;
  MemoryByDevices(ModelSpec&&, const InferenceSettings&, WeightsLayout, EstimateDetail = EstimateDetail::full) = delete;
  MemoryByDevices(const MemoryByDevices&) = delete;  // settings_ points into layout_, counts_ and estimate_cache_
  MemoryByDevices& operator=(const MemoryByDevices&) = delete;
  const MemoryEstimate& at(int gpus) const;
  /// allocator_runs_out for at(gpus) on a CUDA device of `usable_bytes`, with the allocator's
  /// unbounded replay made once per GPU count (a device that holds its peak reserved never runs out).
  bool allocator_runs_out(int gpus, std::int64_t usable_bytes) const;
  const ModelSpec& model() const { return model_; }
  const InferenceSettings& settings() const { return settings_; }
  const WeightsLayout& layout() const { return layout_; }
  const ModelCounts& counts() const { return counts_; }

 private:
  const ModelSpec& model_;
  WeightsLayout layout_;
  ModelCounts counts_;
  /// What its estimates and the searches over its settings share (estimate_cache.hpp).
  mutable EstimateCache estimate_cache_;
  EstimateDetail detail_;
  InferenceSettings settings_;
  /// allocator_replay_applies on one GPU or more (it depends on the device count only so): asked once,
  /// not per catalog entry (a ten-fold catalog's recommendation copied the settings 1,230 times).
  bool allocator_replay_applies_ = false;
  mutable std::vector<MemoryEstimate> cache_;
  mutable std::vector<bool> done_;
  mutable std::vector<std::int64_t> unbounded_reserved_;  ///< per GPU count; -1: not replayed yet
  struct BoundedReplay {
    int gpus;
    std::int64_t capacity_bytes;
    bool out_of_memory;
  };
  mutable std::vector<BoundedReplay> bounded_;  ///< replays with a capacity (a recommendation's GPUs repeat)
};

/** Whether PyTorch's caching allocator runs out on a CUDA device of `usable_bytes` although
 *  `estimate` (of `model` under `settings`, whose gpus it was made for) fits there by its bytes:
 *  the K and V kept between layers split the segments cached for the attention scores
 *  (memory.hpp: replay_transformers_prefill). False where the replay does not apply. */
bool allocator_runs_out(const ModelSpec& model, const InferenceSettings& settings, const MemoryEstimate& estimate,
                        std::int64_t usable_bytes);

/// True when `gpus` devices can split the model's attention heads (vLLM requires heads % tp == 0
/// and KV heads either divisible by tp or replicated: tp % kv_heads == 0).
bool tensor_parallel_ok(const ModelSpec& model, int gpus);
/// True when `engine` can spread the model over `gpus` devices: a layer split (splits_layers) takes
/// any count, tensor parallelism needs tensor_parallel_ok.
inline bool gpus_ok(const ModelSpec& model, Engine engine, int gpus) { return splits_layers(engine) || tensor_parallel_ok(model, gpus); }

struct FitOptions {
  int gpus = 1;                 ///< devices to use; 0: find the smallest count that fits (up to max_gpus)
  int max_gpus = 8;             ///< for a single card bought by the person; capped by max_devices(hw)
  bool search_limits = true;    ///< also find max_context and max_batch (binary searches over the estimate)
  /// Unified memory with several configurations: true picks the smallest that fits comfortably
  /// (else the smallest that fits at all, else the largest), as a recommendation does; false uses
  /// the smallest, as a person who named the laptop without its memory is assumed to have.
  bool pick_memory_option = false;
};

/** Whether the request fits `hw`, where and with how much to spare. */
FitResult fit_request(const MemoryByDevices& memory, const HardwareSpec& hw, const FitOptions& options);

/** The llama.cpp-style split for one GPU with `usable_gpu_bytes`: runtime, compute buffer and the
 *  output layer on the GPU, token embeddings in RAM, and as many whole decoder layers on the GPU
 *  as fit: gpu_layers = floor((usable − fixed) / (layer weights + layer KV cache)). */
OffloadSplit offload_split(const ModelSpec& model, const InferenceSettings& settings, const MemoryEstimate& one_gpu,
                           std::int64_t usable_gpu_bytes);

/// Tokens between the contexts a search tries where PyTorch's caching allocator, not the bytes,
/// decides (each try replays the prompt pass, memory.hpp replay_transformers_prefill): a coarser
/// answer for fewer replays, chosen for speed, not measured.
constexpr std::int64_t kAllocatorSearchStepTokens = 256;

/** Largest input + output context (searching input_tokens, output fixed) whose estimate still fits
 *  `usable_bytes` per device at `gpus`; 0 when even one token does not fit. Memory grows
 *  monotonically with context, so a binary search over the core's own estimate is exact.
 *  `cuda_device`: the devices are CUDA GPUs, where PyTorch's caching allocator must not run out
 *  either (allocator_runs_out). */
std::int64_t max_context_that_fits(const ModelSpec& model, const InferenceSettings& settings, int gpus,
                                   std::int64_t usable_bytes, std::int64_t limit, bool cuda_device);
/** Largest batch that fits at the request's context (same search over batch). */
std::int64_t max_batch_that_fits(const ModelSpec& model, const InferenceSettings& settings, int gpus,
                                 std::int64_t usable_bytes, std::int64_t limit, bool cuda_device);

}  // namespace llmsizer
