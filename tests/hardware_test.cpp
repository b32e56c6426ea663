// SPDX-License-Identifier: MIT
// Fit on hardware: usable memory (display reserve, ECC carve-out, Apple working set), single and
// tensor-parallel GPUs, CPU RAM, llama.cpp partial offload, and the longest context / largest batch
// that fit. Expected numbers are worked by hand in the comments.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "llmsizer/hardware.hpp"
#include "llmsizer/embedded_catalog.hpp"
#include "llmsizer/precision.hpp"
#include "llmsizer/recommend.hpp"
#include "llmsizer/throughput.hpp"
#include "test_support.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace hardware_test {

using namespace llmsizer;

namespace {
constexpr std::int64_t kGiB = 1LL << 30;


const HardwareSpec& hw(const char* id) {
  const HardwareSpec* h = find_hardware(id);
  if (h == nullptr) throw std::runtime_error(std::string("no hardware ") + id);
  return *h;
}
}  // namespace

TEST_CASE("Usable memory subtracts the display reserve ECC carve-out and Apple working-set limit", "[hardware][fit]") {
  // Consumer card drawing a desktop: 16 GiB − 1.5 GiB = 14.5 GiB = 15,569,256,448 B.
  CHECK(usable_device_bytes(hw("nvidia-rtx-4060-ti-16gb"), 16 * kGiB) == 15'569'256'448);
  // Headless datacenter HBM part: all of it (the CUDA context is in the estimate).
  CHECK(usable_device_bytes(hw("nvidia-h100-sxm"), 80 * kGiB) == 80 * kGiB);
  // GDDR datacenter part with ECC on: 15/16 of 24 GiB = 22.5 GiB (AWS shows 22888 MiB per A10G).
  CHECK(usable_device_bytes(hw("aws-g5.xlarge"), 24 * kGiB) == 24 * kGiB / 16 * 15);
  // Apple: 2/3 of 36 GiB = 24 GiB; 3/4 of 64 GiB = 48 GiB (recommendedMaxWorkingSetSize).
  CHECK(usable_device_bytes(hw("macbook-pro-m3-max"), 36 * kGiB) == 24 * kGiB);
  CHECK(usable_device_bytes(hw("macbook-pro-m3-max"), 64 * kGiB) == 48 * kGiB);
  // 16 GB Mac: llama.cpp logs recommendedMaxWorkingSetSize = 10922.67 MB = 16384 MiB × 2/3.
  CHECK(usable_device_bytes(hw("macbook-air-m2"), 16 * kGiB) == 16 * kGiB / 3 * 2);
}

TEST_CASE("An A100 offers what CUDA reports as its total, not the vendor's figure", "[hardware][fit]") {
  // PyTorch's out-of-memory messages: "39.59 GiB total capacity" on an A100 40GB
  // (raoyongming/DenseCLIP#52), "total capacity of 79.25 GiB" on an A100 80GB (wbfwonderful/Vad-R1#11);
  // nvidia-smi's 40960 / 81920 MiB less the framebuffer the driver reserves.
  const auto gib = [](double g) { return static_cast<std::int64_t>(std::llround(g * static_cast<double>(kGiB))); };
  CHECK(usable_device_bytes(hw("nvidia-a100-40gb-sxm"), 40 * kGiB) == gib(39.59));
  CHECK(usable_device_bytes(hw("nvidia-a100-40gb-pcie"), 40 * kGiB) == gib(39.59));
  CHECK(usable_device_bytes(hw("nvidia-a100-80gb-sxm"), 80 * kGiB) == gib(79.25));
  // An instance of those cards inherits the figure: 8 × A100 40GB (p4d), 1 × A100 80GB PCIe (Azure).
  CHECK(usable_device_bytes(hw("aws-p4d.24xlarge"), hw("aws-p4d.24xlarge").device_memory_bytes) == gib(39.59));
  CHECK(usable_device_bytes(hw("azure-nc24ads-a100-v4"), hw("azure-nc24ads-a100-v4").device_memory_bytes) == gib(79.25));
  // The reserve is 0.41 GiB on the 40 GB card (40 − 39.59) and 0.75 GiB on the 80 GB one.
  CHECK(40 * kGiB - usable_device_bytes(hw("nvidia-a100-40gb-sxm"), 40 * kGiB) == gib(0.41));
}

TEST_CASE("Qwen2.5-7B bf16 does not fit a 16 GB card at 32k context but int4 does", "[hardware][fit]") {
  const ModelSpec m = test_support::preset("qwen2.5-7b-instruct");
  const HardwareSpec& card = hw("nvidia-rtx-4060-ti-16gb");
  FitOptions one;
  one.search_limits = false;
  // bf16: weights 7,615,616,512 × 2 = 15,231,233,024 B plus the KV cache at 32,768 tokens,
  // 2 × 28 × 4 × 128 × 32,768 × 2 = 1,879,048,192 B, already make 17,110,281,216 B > 15,569,256,448 B.
  const MemoryByDevices bf16(m, test_support::inference("bf16", 30'720, 2'048));
  const FitResult no = fit_request(bf16, card, one);
  CHECK_FALSE(no.fits);
  CHECK(no.required_bytes >= 17'110'281'216);
  CHECK(no.usable_bytes == 15'569'256'448);
  // int4: 3,807,808,256 B weights + 1,879,048,192 KV + 3,932,160,000 activations (30,720 prompt
  // tokens × (2 × 3584 + 3 × 18944) × 2 B) + 446,693,376 CUDA context = 10,065,709,824 B.
  const MemoryByDevices int4(m, test_support::inference("int4", 30'720, 2'048));
  const FitResult yes = fit_request(int4, card, one);
  CHECK(yes.fits);
  CHECK(yes.placement == Placement::gpu);
  CHECK(yes.required_bytes == 10'065'709'824);
  CHECK(yes.headroom_bytes == 15'569'256'448 - 10'065'709'824);
}

TEST_CASE("A 70B model in int4 needs two 24 GB cards", "[hardware][fit][tensor-parallel]") {
  const ModelSpec m = test_support::preset("llama-3.1-70b-instruct");
  const MemoryByDevices memory(m, test_support::inference("int4", 4'096, 1'024));
  FitOptions automatic;
  automatic.gpus = 0;
  automatic.search_limits = false;
  // One RTX 4090: 22.5 GiB usable (24 GiB − 1.5 GiB display) = 24,159,191,040 B, but the int4
  // weights alone are 70,553,706,496 / 2 = 35,276,853,248 B. Two (64 heads, 8 KV heads divide):
  // 17,638,426,624 weights + 838,860,800 KV (80 × 2 × 4 × 128 × 5,120 × 2) + 486,539,264
  // activations (4,096 × (2 × 8192 + 3 × 14336) × 2) + 446,693,376 context = 19,410,520,064 B.
  const FitResult fit = fit_request(memory, hw("nvidia-rtx-4090"), automatic);
  CHECK(fit.fits);
  CHECK(fit.gpus_needed == 2);
  CHECK(fit.placement == Placement::multi_gpu);
  CHECK(fit.required_bytes == 19'410'520'064);
  FitOptions single;
  single.search_limits = false;
  CHECK_FALSE(fit_request(memory, hw("nvidia-rtx-4090"), single).fits);
}

TEST_CASE("Tensor parallelism needs the heads to divide", "[hardware][tensor-parallel]") {
  const ModelSpec m = test_support::preset("qwen2.5-7b-instruct");  // 28 heads, 4 KV heads
  CHECK(tensor_parallel_ok(m, 1));
  CHECK(tensor_parallel_ok(m, 2));
  CHECK(tensor_parallel_ok(m, 4));
  CHECK_FALSE(tensor_parallel_ok(m, 3));  // 28 % 3 != 0
  CHECK_FALSE(tensor_parallel_ok(m, 8));  // 28 % 8 != 0
  CHECK_FALSE(tensor_parallel_ok(m, 7));  // 28 % 7 == 0 but 4 KV heads neither divide by 7 nor divide 7
}

TEST_CASE("Partial offload puts whole layers on an 8 GB card and the rest in RAM", "[hardware][offload]") {
  // Qwen2.5-7B bf16, 3,072 + 1,024 tokens, on an RTX 4060 (8 GiB − 1.5 GiB = 6,979,321,856 B usable).
  // One decoder layer: 6,525,621,760 layer+norm params / 28 = 233,057,920 × 2 B = 466,115,840 B,
  // plus its KV cache 2 × 4 × 128 × 4,096 × 2 = 8,388,608 B → 474,504,448 B per layer.
  // On the GPU regardless: CUDA context 446,693,376 + compute buffer 3,072 × 64,000 × 2 =
  // 393,216,000 + output layer 152,064 × 3,584 × 2 = 1,089,994,752 → 1,929,904,128 B.
  // Layers: floor((6,979,321,856 − 1,929,904,128) / 474,504,448) = floor(10.64) = 10; 18 in RAM.
  const ModelSpec m = test_support::preset("qwen2.5-7b-instruct");
  const MemoryByDevices memory(m, test_support::inference("bf16", 3'072, 1'024));
  FitOptions one;
  one.search_limits = false;
  const FitResult fit = fit_request(memory, hw("nvidia-rtx-4060"), one);
  CHECK_FALSE(fit.fits);
  REQUIRE(fit.offload_possible);
  CHECK(fit.placement == Placement::offload);
  CHECK(fit.offload.gpu_layers == 10);
  CHECK(fit.offload.cpu_layers == 18);
  CHECK(fit.offload.gpu_bytes == 1'929'904'128 + 10 * 474'504'448LL);
  // RAM: token embeddings 1,089,994,752 + 18 layers.
  CHECK(fit.offload.host_bytes == 1'089'994'752 + 18 * 474'504'448LL);
}

TEST_CASE("CPU inference fits in RAM minus the OS reserve", "[hardware][cpu]") {
  const ModelSpec m = test_support::preset("qwen2.5-7b-instruct");
  const MemoryByDevices memory(m, test_support::inference("int4", 1'024, 1'024));
  FitOptions cpu;
  cpu.search_limits = false;
  const FitResult fit = fit_request(memory, hw("amd-ryzen-9-7950x"), cpu);
  CHECK(fit.fits);
  CHECK(fit.placement == Placement::cpu);
  CHECK(fit.gpus_needed == 0);
  CHECK(fit.required_bytes == memory.at(0).host_bytes);
  CHECK(fit.usable_bytes == 192 * kGiB - 4 * kGiB);
}

TEST_CASE("Apple picks the smallest unified-memory configuration that fits", "[hardware][apple]") {
  // Qwen2.5-32B int4 needs ~20 GB: the 36 GB M3 Max lets the GPU use 24 GiB, enough.
  const ModelSpec m = test_support::preset("qwen2.5-32b-instruct");
  const MemoryByDevices memory(m, test_support::inference("int4", 1'024, 1'024));
  FitOptions one;
  one.search_limits = false;
  const FitResult fit = fit_request(memory, hw("macbook-pro-m3-max"), one);
  CHECK(fit.fits);
  CHECK(fit.placement == Placement::unified);
  CHECK(fit.memory_option_bytes == 36 * kGiB);
  CHECK(fit.usable_bytes == 24 * kGiB);
}

TEST_CASE("Longest context and largest batch sit exactly at the memory limit", "[hardware][limits][property]") {
  const ModelSpec m = test_support::preset("qwen2.5-7b-instruct");
  const InferenceSettings s = test_support::inference("int4", 1'024, 512, 4);
  const std::int64_t usable = 12 * kGiB;
  const std::int64_t context = max_context_that_fits(m, s, 1, usable, 1'000'000, true);
  REQUIRE(context > 1'024 + 512);
  InferenceSettings at = s;
  at.gpus = 1;
  at.input_tokens = context - s.output_tokens;
  CHECK(estimate_inference_memory(m, at).device_bytes <= usable);
  at.input_tokens += 1;
  CHECK(estimate_inference_memory(m, at).device_bytes > usable);

  const std::int64_t batch = max_batch_that_fits(m, s, 1, usable, 1'000'000, true);
  REQUIRE(batch > 1);
  InferenceSettings b = s;
  b.gpus = 1;
  b.batch = batch;
  CHECK(estimate_inference_memory(m, b).device_bytes <= usable);
  b.batch += 1;
  CHECK(estimate_inference_memory(m, b).device_bytes > usable);
}

TEST_CASE("Estimate with hardware returns fit throughput and cost sections", "[hardware][api]") {
  const auto r = test_support::estimate({{"model", "qwen2.5-7b-instruct"}, {"weights", "int4"}, {"input_tokens", 30720},
                                         {"output_tokens", 2048}, {"hardware", "nvidia-rtx-4060-ti-16gb"}});
  REQUIRE(r.contains("fit"));
  CHECK(r["fit"]["fits"] == true);
  CHECK(r["fit"]["usable_bytes"] == 15'569'256'448LL);
  CHECK(r["fit"]["max_context"].get<std::int64_t>() > 32'768 - 1);
  CHECK(r["throughput"]["decode_tokens_per_s"].get<double>() > 0);
  CHECK(r.contains("cpu_vs_gpu"));
  CHECK(r["cost"]["price"] == "own");
  const auto unknown = test_support::estimate({{"model", "qwen2.5-7b-instruct"}, {"hardware", "no-such-gpu"}});
  CHECK(unknown["error"]["field"] == "hardware");
  const auto inline_hw = test_support::estimate({{"model", "qwen2.5-7b-instruct"},
                                                 {"hardware", {{"kind", "gpu"}, {"memory_bytes", 48 * kGiB}, {"memory_bandwidth_gb_per_s", 900}}}});
  CHECK(inline_hw["fit"]["fits"] == true);
  const auto bad_inline = test_support::estimate({{"model", "qwen2.5-7b-instruct"}, {"hardware", {{"kind", "gpu"}, {"memory_bytes", 0}}}});
  CHECK(bad_inline["error"]["field"] == "hardware.memory_bytes");
}

TEST_CASE("A probe file becomes a measured hardware entry", "[hardware][measured]") {
  // The shape llmsizer-probe writes to data/measured/<id>.json (summary.cpu and summary.cuda).
  const std::string doc = (R"({"id": "probe-x", "summary": {
      "cpu": {"name": "Test CPU", "memory_bandwidth_gb_per_s": 14.5, "memory_total_bytes": 25275990016, "threads": 2,
              "matmul_tflops": {"fp32": 0.17}},
      "cuda": {"name": "Test GPU", "memory_total_bytes": 25769803776, "memory_bandwidth_gb_per_s": 900.0,
               "matmul_tflops": {"bf16": 150.0}, "host_to_device_gb_per_s": {"pinned": 25.0}}}})");
  const std::vector<HardwareSpec> entries = hardware_from_probe_text(doc);
  REQUIRE(entries.size() == 2);
  CHECK(entries[0].name == "measured: Test CPU");
  CHECK(entries[0].is_cpu());
  // Measured values are used as they are (no efficiency factor on top).
  CHECK(effective_bandwidth_gb_per_s(entries[0], true) == 14.5);
  CHECK(entries[1].name == "measured: Test GPU");
  CHECK(effective_bandwidth_gb_per_s(entries[1], false) == 900.0);
  CHECK(effective_tflops(entries[1], false) == 150.0);
}

TEST_CASE("One entry read on its own equals the catalog's entry for every id", "[hardware][catalog]") {
  // hardware_entry parses only the entry's file (and its GPU's); a request naming one device uses it.
  for (const auto& c : hardware_catalog()) {
    CAPTURE(c.id);
    const std::optional<HardwareSpec> e = hardware_entry(c.id);
    REQUIRE(e.has_value());
    CHECK(e->id == c.id);
    CHECK(e->name == c.name);
    CHECK(e->kind == c.kind);
    CHECK(e->vendor == c.vendor);
    CHECK(e->segment == c.segment);
    CHECK(e->device_count == c.device_count);
    CHECK(e->device_memory_bytes == c.device_memory_bytes);
    CHECK(e->host_memory_bytes == c.host_memory_bytes);
    CHECK(e->unified_memory == c.unified_memory);
    CHECK(e->drives_display == c.drives_display);
    CHECK(e->ecc_carveout == c.ecc_carveout);
    CHECK(e->memory_bandwidth_gb_per_s == c.memory_bandwidth_gb_per_s);
    CHECK(e->matrix_tflops == c.matrix_tflops);
    CHECK(e->link_gb_per_s == c.link_gb_per_s);
    CHECK(e->pcie_gb_per_s == c.pcie_gb_per_s);
    CHECK(e->tdp_w == c.tdp_w);
    CHECK(e->host_bandwidth_gb_per_s == c.host_bandwidth_gb_per_s);
    CHECK(e->host_tflops == c.host_tflops);
    CHECK(e->cpu_cores == c.cpu_cores);
    CHECK(e->price_usd == c.price_usd);
    CHECK(e->price_usd_per_hour == c.price_usd_per_hour);
    CHECK(e->gpu_id == c.gpu_id);
    CHECK(e->memory_options_bytes == c.memory_options_bytes);
    CHECK(e->measured_bandwidth_gb_per_s == c.measured_bandwidth_gb_per_s);
    CHECK(e->measured_tflops == c.measured_tflops);
    CHECK(e->source == c.source);
    CHECK(e->unsupported.id == c.unsupported.id);
  }
  CHECK_FALSE(hardware_entry("no-such-device").has_value());
  CHECK(hardware_entry("NVIDIA-RTX-4090")->id == "nvidia-rtx-4090");  // ids are case-insensitive
}

TEST_CASE("The instances with a GPU read on their own are the catalog's", "[hardware][catalog][cost]") {
  // instances_with_gpu feeds the buy-or-rent break-even of one owned GPU without parsing the catalog.
  int with_rentals = 0;
  for (const auto& g : hardware_catalog()) {
    if (g.kind != HardwareKind::gpu) continue;
    CAPTURE(g.id);
    std::vector<std::string> expected;
    for (const auto& h : hardware_catalog()) {
      if (h.kind == HardwareKind::instance && h.gpu_id == g.id) expected.push_back(h.id);
    }
    std::vector<std::string> got;
    for (const auto& h : instances_with_gpu(g.id)) {
      got.push_back(h.id);
      const HardwareSpec* c = find_hardware(h.id);
      REQUIRE(c != nullptr);
      CHECK(h.price_usd_per_hour == c->price_usd_per_hour);
      CHECK(h.device_count == c->device_count);
      CHECK(h.gpu_id == c->gpu_id);
    }
    std::sort(expected.begin(), expected.end());
    std::sort(got.begin(), got.end());
    CHECK(got == expected);
    if (!got.empty()) ++with_rentals;
    // The break-even is the same whichever list it is given.
    const OptionCost full = option_cost(g, 1, 50.0, OwnershipCosts{}, hardware_catalog());
    const OptionCost own = option_cost(g, 1, 50.0, OwnershipCosts{}, instances_with_gpu(g.id));
    CHECK(own.break_even_instance == full.break_even_instance);
    CHECK(own.break_even_hours == full.break_even_hours);
  }
  CHECK(with_rentals >= 5);  // RTX 4090, A100, H100, L4, ... are rented in the catalog
}

TEST_CASE("A device sold in several memory sizes is narrowed to the one the person has, at its price", "[hardware][machine]") {
  // 13-inch MacBook Air (M3): 8, 16 or 24 GB at $1,099, $1,299, $1,499 (data/hardware/macbook-air-m3.json).
  HardwareSpec air = *hardware_entry("macbook-air-m3");
  REQUIRE(air.memory_options_bytes.size() == 3);
  CHECK_FALSE(choose_memory_option(air, 12LL << 30));
  CHECK(air.memory_options_bytes.size() == 3);
  REQUIRE(choose_memory_option(air, 16LL << 30));
  CHECK(air.memory_options_bytes == std::vector<std::int64_t>{16LL << 30});
  CHECK(air.price_usd == 1299.0);
  // Through a request: a size it is not sold in names the field.
  const auto bad = nlohmann::json::parse(estimate(R"({"model": "qwen2.5-7b-instruct", "hardware": "macbook-air-m3", "memory_option_bytes": "12 GiB"})"));
  CHECK(bad["error"]["field"] == "memory_option_bytes");
}


TEST_CASE("Catalog facts: consumer GPUs draw the desktop, GDDR datacenter GPUs carve ECC, Apple's matrix rate is its FP32 rate, Inferentia runs none of the engines", "[hardware]") {
  CHECK(drives_display_by_segment("consumer"));
  CHECK_FALSE(drives_display_by_segment("datacenter"));
  CHECK_FALSE(drives_display_by_segment("workstation"));
  // NVIDIA L40S: 48 GB GDDR6 with ECC (datasheet); H100's HBM3 keeps ECC out of band.
  CHECK(ecc_carveout_by("datacenter", "GDDR6"));
  CHECK_FALSE(ecc_carveout_by("datacenter", "HBM3"));
  CHECK_FALSE(ecc_carveout_by("consumer", "GDDR6X"));
  // Apple M3: no FP16 matrix figure published; its FP32 rate 4.1 TFLOPS stands in. GB10 (tensor
  // cores) keeps its own figure, and a chip with a published figure keeps it.
  CHECK(unified_matrix_tflops("apple-silicon", 0, 4.1) == 4.1);
  CHECK(unified_matrix_tflops("datacenter", 0, 31.0) == 0);
  CHECK(unified_matrix_tflops("apple-silicon", 10.0, 4.1) == 10.0);
  CHECK(neuron_only_accelerator("AWS Inferentia2"));
  CHECK_FALSE(neuron_only_accelerator("NVIDIA L4"));
}

TEST_CASE("Catalog entries carry the facts the rules derive: an RTX 4090 draws the desktop, an L40S carves ECC, an M3's matrix rate is its FP32 rate", "[hardware]") {
  const auto find = [](std::string_view id) -> const HardwareSpec& {
    const HardwareSpec* h = find_hardware(id);
    REQUIRE(h != nullptr);
    return *h;
  };
  CHECK(find("nvidia-rtx-4090").drives_display);
  CHECK(find("nvidia-l40s").ecc_carveout);
  CHECK_FALSE(find("nvidia-h100-sxm").ecc_carveout);
  const HardwareSpec& m3 = find("apple-m3");
  CHECK(m3.matrix_tflops == m3.fp32_tflops);
  CHECK_FALSE(find("aws-inf2.xlarge").unsupported.id.empty());
}

TEST_CASE("On a CPU a request is estimated with no GPU, elsewhere with the GPUs it asks for", "[hardware]") {
  CHECK(gpus_estimated_on(*find_hardware("amd-ryzen-9-7950x"), 1) == 0);
  CHECK(gpus_estimated_on(*find_hardware("nvidia-rtx-4090"), 2) == 2);
}

}  // namespace hardware_test
