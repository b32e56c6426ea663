// SPDX-License-Identifier: MIT
#include "llmsizer/message_text.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string_view>

#include "answer/format.hpp"
#include "answer/message_json.hpp"
#include "llmsizer/decimal_text.hpp"
#include "llmsizer/precision.hpp"
#include "json_text.hpp"

namespace llmsizer::edge {
namespace {

/// The English templates every answer may say, sorted by id (a test checks the order and that no id
/// is in two tables); serving's and training's, and the model files', are tables of their own
/// (message_text.hpp).
/// `{name}` is replaced by the argument `name`; other braces are literal.
constexpr MessageTemplate kTemplates[] = {
    {"assumption.amd_share_half",
     "The AMD GPU gets half of unified memory by default (the amdgpu driver's GTT pool, Windows' automatic setting): {usable_bytes} of {memory_bytes}"},
    {"assumption.apple_share_three_quarters",
     "macOS lets the GPU use about 3/4 of unified memory above 36 GB (Metal's recommendedMaxWorkingSetSize): {usable_bytes} of {memory_bytes}"},
    {"assumption.apple_share_two_thirds",
     "macOS lets the GPU use about 2/3 of unified memory up to 36 GB (Metal's recommendedMaxWorkingSetSize): {usable_bytes} of {memory_bytes}"},
    {"assumption.budget_as_given",
     "The budget is compared with the peak as given: nothing is kept for the operating system (enter my machine for that)"},
    {"assumption.cuda_total",
     "CUDA reports {cuda_total_bytes} as the card's total: the driver reserves {reserved_bytes} (measured)"},
    {"assumption.display_reserve",
     "{reserve_bytes} kept for the desktop this GPU also draws"},
    {"assumption.ecc_carveout",
     "ECC on GDDR memory keeps {carveout_bytes} (1/16) for check bits"},
    {"assumption.gpu_limit_set",
     "The GPU may use {usable_bytes} of the {memory_bytes} unified memory: the limit you set"},
    {"assumption.host_ram_assumed",
     "The catalog gives no RAM for this device: {ram_bytes} assumed"},
    {"assumption.margin",
     "Tight below a margin of {margin_bytes}: the larger of {floor_bytes} (llama.cpp leaves 1 GiB free per device) and {percent}% of usable memory (vLLM uses 90% by default)"},
    {"assumption.nvidia_unified",
     "CUDA may use all of unified memory the operating system does not hold: {cuda_total_bytes} as CUDA reports it, less {reserve_bytes} for the operating system: {usable_bytes} of {memory_bytes}"},
    {"assumption.os_reserve",
     "{reserve_bytes} of the {ram_bytes} RAM kept for the operating system and other programs (Windows 11 requires 4 GB or more)"},
    {"assumption.runtime_overhead",
     "The runtime's own memory (CUDA context, library workspaces, allocator) is in the peak: {overhead_bytes}"},
    {"assumption.smallest_configuration",
     "Assumed the {memory_bytes} configuration (sold with {smallest_bytes} to {largest_bytes}); enter your own memory under my machine"},
    {"assumption.windows_sysmem_fallback",
     "On Windows, NVIDIA's driver (536.40 and later) moves what does not fit the GPU into shared system memory instead of failing, and the model then runs several times slower: the fit counts the GPU's own memory only"},
    {"costs.buy_beyond_life",
     " buying {name} for {upfront_usd} ({monthly_usd} a month with the purchase spread over its life) does not pay for itself within its {years}-year life against the {rent_usd} a month that renting its tokens costs."},
    {"costs.buy_never_pays_back",
     " buying {name} for {upfront_usd} ({monthly_usd} a month with the purchase spread over its life) never costs less than renting."},
    {"costs.buy_no_rental",
     " buying {name} costs {upfront_usd} ({monthly_usd} a month with the purchase spread over its life); no instance to rent holds it."},
    {"costs.buy_pays_back",
     " buying {name} for {upfront_usd} ({monthly_usd} a month with the purchase spread over its life) pays for itself after {months} months against the {rent_usd} a month that renting its tokens costs."},
    {"costs.explain.already_owned",
     "purchase: already yours, not counted"},
    {"costs.explain.amortization",
     "purchase spread over its life: {upfront_usd} ÷ ({years} years × 12) = {monthly_usd} a month"},
    {"costs.explain.beyond_life",
     "never pays for itself within its {life_months}-month life against renting {instance} for the same tokens, {rent_usd} a month: {upfront_usd} ÷ ({rent_usd} rent − {running_usd} power and upkeep a month) = {months} months"},
    {"costs.explain.break_even",
     "break-even against renting {instance} for the same tokens, {rent_usd} a month: {upfront_usd} ÷ ({rent_usd} rent − {running_usd} power and upkeep a month) = {months} months, within its {life_months}-month life"},
    {"costs.explain.hours_from_tokens",
     "hours of work a day: {tokens_count} tokens ÷ ({speed} tokens/s × 3,600 s) = {hours} h"},
    {"costs.explain.never_breaks_even",
     "never breaks even against renting {instance} for the same tokens: its {rent_usd} a month is no more than the {running_usd} of power and upkeep (purchase {upfront_usd})"},
    {"costs.explain.per_million_tokens",
     "per million tokens: {monthly_usd} ÷ ({tokens_count} tokens × {days} days) × 1,000,000 = {per_million_tokens_usd}"},
    {"costs.explain.power",
     "power and cooling: {watts} W ÷ 1,000 × {utilization} of the time at full power × {hours} h a day × {days} days × PUE {pue} × {kwh_usd} per kWh = {monthly_usd} a month"},
    {"costs.explain.purchase",
     "purchase: {hardware_usd} × {machines} = {upfront_usd}"},
    {"costs.explain.purchase_box",
     "purchase: ({hardware_usd} for the devices + {box_usd} for the rest of the PC) × {machines} = {upfront_usd}"},
    {"costs.explain.rent",
     "rent: {hourly_usd} an hour × {hours} h a day × {days} days = {monthly_usd} a month"},
    {"costs.explain.tokens_from_hours",
     "tokens a day: {speed} tokens/s × 3,600 s × {hours} h = {tokens_count}"},
    {"costs.explain.upkeep",
     "upkeep: {yearly_usd} a year ÷ 12 = {monthly_usd} a month"},
    {"costs.mine",
     " your {name} costs {monthly_usd} a month in electricity;"},
    {"costs.nothing_priced_fits",
     " no option with a known price holds this model at these settings."},
    {"costs.rent",
     " renting {name} costs {monthly_usd} a month ({per_million_tokens_usd} per million tokens);"},
    {"costs.summary.hours",
     "At {hours} hours of work a day:"},
    {"costs.summary.tokens",
     "At {tokens_count} output tokens a day:"},
    {"cpu_vs_gpu.cpu_is_enough",
     "{cpu} alone gives ~{cpu_tokens_per_s} tokens/s for one sequence, above reading speed ({reading_tokens_per_s} tokens/s): a CPU with {format} weights is enough for one reader; the GPU gives ~{gpu_tokens_per_s} tokens/s"},
    {"cpu_vs_gpu.cpu_stays_ahead",
     "; the CPU stays ahead up to batch 1024"},
    {"cpu_vs_gpu.gpu_ahead_from_batch",
     "; the GPU pulls ahead from batch {batch}"},
    {"cpu_vs_gpu.own_cpu_is_enough",
     "This device's own CPU alone gives ~{cpu_tokens_per_s} tokens/s for one sequence, above reading speed ({reading_tokens_per_s} tokens/s): a CPU with {format} weights is enough for one reader; the GPU gives ~{gpu_tokens_per_s} tokens/s"},
    {"cpu_vs_gpu.own_cpu_use_the_gpu",
     "This device's own CPU alone gives ~{cpu_tokens_per_s} tokens/s, below reading speed ({reading_tokens_per_s} tokens/s): use the GPU (~{gpu_tokens_per_s} tokens/s) or a smaller weight format"},
    {"cpu_vs_gpu.use_the_gpu",
     "{cpu} alone gives ~{cpu_tokens_per_s} tokens/s, below reading speed ({reading_tokens_per_s} tokens/s): use the GPU (~{gpu_tokens_per_s} tokens/s) or a smaller weight format"},
    {"error.also_loaded.other_module",
     "models kept loaded beside this one are answered by the page's other module (llmsizer-tasks.js), which estimates them together; this one estimates one model"},
    {"error.boolean",
     "must be true or false; got {got}"},
    {"error.config.block_configs_count",
     "must hold one block per layer ({layers})"},
    {"error.config.experts_per_token_above_experts",
     "must be at most the number of experts ({experts}); got {got}"},
    {"error.config.ffn_mult",
     "must be a number above 0 and below 1000"},
    {"error.config.heads_divide_hidden",
     "must divide hidden_size ({hidden}) when head_dim is not given; got {heads}"},
    {"error.config.hybrid_layer_pattern",
     "must list 0 (full) or 1 (sliding) for each of the {layers} layers"},
    {"error.config.hybrid_pattern_char",
     "must hold only M, *, - and E; got '{got}'"},
    {"error.config.hybrid_pattern_count",
     "must give one of M, *, -, E for each of the {layers} layers; got {got}"},
    {"error.config.intermediate_size_required",
     "is required: a whole number from 1 to 100000000"},
    {"error.config.kv_heads_divide_heads",
     "must divide num_attention_heads ({heads}); got {kv_heads}"},
    {"error.config.layer_types_count",
     "must list one type per layer ({layers}); got {got}"},
    {"error.config.missing",
     "is missing from the config: give {key}, a whole number from {min} to {max}"},
    {"error.config.mlp_only_layers",
     "must list layer indices from 0 to {last}; got {got}"},
    {"error.config.moe_width_required",
     "is required for a mixture-of-experts config (or intermediate_size): a whole number from 1 to 100000000"},
    {"error.config.n_heads_in_group",
     "must divide num_attention_heads ({heads}); got {got}"},
    {"error.config.not_object",
     "must be a config.json object"},
    {"error.config.pixel_shuffle_ratio",
     "must be a number above 0 and at most 1"},
    {"error.config.sliding_window_required",
     "is required with hybrid_layer_pattern: a whole number of tokens from 1 to 1000000000"},
    {"error.cost.not_object",
     "must be an object such as {\"lifetime_years\": 3, \"electricity_usd_per_kwh\": 0.17}"},
    {"error.cpu.not_a_cpu",
     "must be one of the catalog's CPUs; got \"{id}\""},
    {"error.draft.mtp_engine",
     "a model's own multi-token-prediction layers draft under vLLM and SGLang only; choose one of them, or draft with another model"},
    {"error.draft.needs_architecture",
     "must be a model with its layers (a preset or a config), not a bare parameter count: the draft's cache and speed follow its shape"},
    {"error.draft.no_mtp_layers",
     "{model} ships no multi-token-prediction layers; draft with another model (draft.model) instead"},
    {"error.draft.not_object",
     "must be an object with the draft model (model, weights, draft_max, acceptance_rate, n_gpu_layers); got {got}"},
    {"error.draft.ollama",
     "Ollama runs no draft model (no speculative decoding); use engine llama.cpp, vllm or sglang for a draft"},
    {"error.draft.program_engine",
     "is llama.cpp's (llama-server or llama-speculative); use engine llama.cpp or leave it out (got {got})"},
    {"error.draft.program_one_sequence",
     "llama-speculative generates one sequence (its -np splits the draft into branches); set batch and llama_cpp.parallel to 1, or use llama-server (got {sequences})"},
    {"error.engine_version",
     "must be a release of {engine} in its own numbering, such as {examples}: major.minor from 0.1 to 99.99, then optionally .patch, a leading v and a suffix such as rc2 or .post1; got \"{got}\""},
    {"error.engine_version_build",
     "must be a llama.cpp build: its number as the release tag \"b6918\" or \"6918\", optionally with the commit hash (\"b6918-1d2e3f4\", \"version: 6918 (1d2e3f4)\", \"build 1d2e3f4 (6918)\"); got \"{got}\""},
    {"error.gpus.instance",
     "the instance {id} has {gpus} GPUs; ask for at most that many"},
    {"error.gpus.machine",
     "your machine has {gpus} GPUs; ask for at most that many"},
    {"error.gpus.single",
     "{id} has one GPU; ask for at most 1"},
    {"error.group_size",
     "must be one of 32, 64, 128, 256, 512, 1024; got {got}"},
    {"error.group_size_gptq",
     "must be one of 32, 64, 128, 256, 512, 1024 or -1 (one group per column); got {got}"},
    {"error.hardware.kind",
     "must be one of gpu, cpu, instance, laptop; got \"{kind}\""},
    {"error.hardware.memory_option_prices",
     "must give one price in USD for each of the laptop's memory configurations"},
    {"error.hardware.memory_options",
     "a unified-memory laptop needs its RAM configurations in bytes"},
    {"error.hardware.not_an_object",
     "must be a catalog id (see `llmsizer hardware`) or an object with the catalog's fields"},
    {"error.hardware.positive",
     "must be a positive number ({quantity_term})"},
    {"error.hardware.probe_without_summary",
     "the probe file has no measured summary (summary.cpu or summary.cuda with memory_bandwidth_gb_per_s)"},
    {"error.hardware.training_needs_gpu",
     "training is sized for GPUs; pick a GPU, laptop or instance"},
    {"error.hardware.unknown_id",
     "unknown hardware id \"{id}\"; list the catalog with `llmsizer hardware`, or give an object with its fields"},
    {"error.internal",
     "internal error: {detail}"},
    {"error.llama_cpp.cache_type",
     "must be one of f32, f16, bf16, q8_0, q4_0, q4_1, iq4_nl, q5_0, q5_1 (llama.cpp -ctk/-ctv); got '{got}'"},
    {"error.llama_cpp.mla_cache_types",
     "llama.cpp needs the same K and V cache type for MLA models (DeepSeek); got {type_k} and {type_v}"},
    {"error.llama_cpp.n_ctx",
     "must be 0 (the model's trained context) or more; got {got}"},
    {"error.llama_cpp.n_gpu_layers",
     "must be -1 (every layer) or a whole number of layers on the GPU from 0 to {max} (the model's {layers} layers and the output layer); got {got}"},
    {"error.llama_cpp.needs_architecture",
     "llama.cpp's memory needs the model's architecture (layers, hidden size, heads), not only a parameter count"},
    {"error.llama_cpp.override_tensor",
     "is not a regular expression llama.cpp's -ot takes: '{pattern}' ({detail})"},
    {"error.llama_cpp.override_tensor_list",
     "must be a list of at most {max} regular expressions naming the tensors llama.cpp keeps on the CPU (-ot PATTERN=CPU); got {got}"},
    {"error.llama_cpp.quantized_v_needs_flash_attention",
     "llama.cpp needs flash attention (-fa on) for a quantized V cache ({type_v})"},
    {"error.lora_targets.empty",
     "must name at least one module, or \"attention\" / \"all-linear\""},
    {"error.lora_targets.mla_only",
     "LoRA target \"{target}\" exists only in multi-head latent attention models (DeepSeek-V2/V3)"},
    {"error.lora_targets.needs_architecture",
     "LoRA adapter sizes need the model's architecture; give a preset id or {\"config\": {...}} instead of a bare parameter count"},
    {"error.lora_targets.not_gated",
     "LoRA target \"{target}\": this model's MLP is not gated (no gate projection); use up_proj and down_proj"},
    {"error.lora_targets.unknown",
     "unknown LoRA target \"{target}\"; use \"attention\", \"all-linear\" or module names from: {known}"},
    {"error.machine.not_object",
     "must be an object with ram_bytes, and vram_bytes and gpus for a machine with GPUs"},
    {"error.machine.ram_needed",
     "is needed: the machine's RAM (or unified memory), such as \"16 GiB\""},
    {"error.machine.unknown_field",
     "is not a field of machine (base, ram_bytes, vram_bytes, gpus, unified_memory, gpu_memory_limit_bytes, display)"},
    {"error.machine.vram_needed",
     "is needed when the machine has GPUs: the memory of each, such as \"8 GiB\""},
    {"error.memory_amount",
     "must be a number of bytes or a size with its unit, such as \"16 GiB\" or \"16 GB\", from {min_bytes} to {max_bytes}; got {got}"},
    {"error.memory_option.not_offered",
     "must be one of the memory configurations this device is sold with, in bytes: {allowed}"},
    {"error.memory_range.not_negative",
     "must be a size of zero or more, at most {max_bytes}; got {got_bytes}"},
    {"error.memory_range.positive",
     "must be a size above zero, at most {max_bytes}; got {got_bytes}"},
    {"error.model.layers_and_hidden_size",
     "give both layers and hidden_size, or neither"},
    {"error.model.neither_config_nor_params",
     "must be a preset id, {\"config\": {...}} or {\"params\": N}; the object has neither \"config\" nor \"params\""},
    {"error.model.not_a_model",
     "must be a preset id (see `llmsizer models`), {\"config\": {...}} or {\"params\": N}; got {got}"},
    {"error.model.required",
     "is required: a preset id (see `llmsizer models`), {\"config\": {...}} or {\"params\": N}"},
    {"error.model.tensor",
     "must be [name, ggml type, [ne0, ne1, ...]] with a known ggml type, 1 to 4 dimensions of at least 1 and rows of whole blocks; got {got}"},
    {"error.model.tensors",
     "must be a list of at most {max} tensors, each [name, ggml type, [ne0, ne1, ...]]"},
    {"error.model.tensors_bytes",
     "the tensors hold {tensors_bytes}, not the model's weight_bytes ({weight_bytes})"},
    {"error.model.too_large",
     "the model is too large to size (over 1e17 parameters); check hidden_size, num_hidden_layers and intermediate_size"},
    {"error.model.unknown_preset",
     "unknown model preset \"{id}\"; list the presets with `llmsizer models`, or give {\"config\": {...}} or {\"params\": N}"},
    {"error.number",
     "must be a number from {min} to {max}; got {got}"},
    {"error.ollama.conflict",
     "differs from the request's {other} ({value}); give one of the two"},
    {"error.ollama.not_object",
     "must be an object of Ollama settings (num_parallel, num_batch, num_gpu, use_mmap, kv_cache_type, flash_attention); got {got}"},
    {"error.one_of",
     "must be one of {allowed}; got {got}"},
    {"error.repository.file_kind",
     "must name a .gguf or .safetensors file of the repository; got {got}"},
    {"error.repository.file_not_found",
     "{id} has no file {file}; its model files: {files}"},
    {"error.repository.listing",
     "is not a repository's file listing (the Hub's /api/models/ID answer)"},
    {"error.repository.no_model_files",
     "{id} has no config.json, .safetensors or .gguf file to size a model from"},
    {"error.request.empty",
     "the request is empty; send a JSON object such as {\"model\": \"qwen2.5-7b-instruct\"}"},
    {"error.request.not_json",
     "the request is not valid JSON ({detail})"},
    {"error.request.not_object",
     "the request must be a JSON object such as {\"model\": \"qwen2.5-7b-instruct\"}; got {type}"},
    {"error.request.unreadable",
     "the request could not be read: {detail}"},
    {"error.string",
     "must be a string; got {got}"},
    {"error.task.other_module",
     "task {task} is answered by the page's other module (llmsizer-tasks.js), which estimates every task; this one estimates inference only"},
    {"error.tokens.activations_too_large",
     "context × batch is too large to size for this model (activations over 1e18 bytes); lower input_tokens or batch"},
    {"error.tokens.context_too_long",
     "input_tokens + output_tokens must be at most {max}; got {got}"},
    {"error.tokens.kv_cache_too_large",
     "context × batch is too large to size for this model (KV cache over 1e18 bytes); lower input_tokens, output_tokens or batch"},
    {"error.usage.both",
     "give hours_per_day or tokens_per_day, not both"},
    {"error.usage.not_object",
     "must be an object such as {\"hours_per_day\": 8} or {\"tokens_per_day\": 1000000}"},
    {"error.whole_number",
     "must be a whole number from {min} to {max}; got {got}"},
    {"explain.activations.bnb_dequant.formula",
     "bitsandbytes 4-bit prefill: the largest quantized matrix dequantized to 16 bits"},
    {"explain.activations.bnb_dequant.values",
     "{weights_count} weights × 2 B"},
    {"explain.activations.generic.formula",
     "max(one layer's prefill temporaries, last-token logits)"},
    {"explain.activations.generic.values",
     "max({tokens_count} tokens × (2 × {hidden_count} + 3 × {mlp_width_count}) × {element_size} B, {batch} × {vocab_count} vocab × 4 B)"},
    {"explain.activations.plus_exllama_temp_dq",
     " + ExLlama temp_dq {temp_dq_bytes}"},
    {"explain.activations.plus_rotary_tables",
     " + rotary cos/sin tables {tables_bytes}"},
    {"explain.activations.transformers.decode.formula",
     "decode peak: the full cache plus what torch.cat copies while it grows, one token's temporaries and last-token logits (fp32 upcast, sampling copies)"},
    {"explain.activations.transformers.decode.values",
     "one layer's keys copied by torch.cat {copy_bytes}, {batch} × {vocab_count} vocab × ({element_size} + 12) B"},
    {"explain.activations.transformers.decode_tuple_cache.values",
     "previous step's cache (tuple kept by generate) {previous_cache_bytes}, {batch} × {vocab_count} vocab × ({element_size} + 12) B"},
    {"explain.activations.transformers.prefill.formula",
     "prefill peak: one layer's temporaries (MLP: 3 × tokens × intermediate; attention: q, k, v, rotary and repeat_kv copies; RMSNorm fp32 upcast) and last-token logits, above the cache not yet filled"},
    {"explain.activations.transformers.prefill.values",
     "{prompt_tokens_count} prompt tokens × (2 × {hidden_count} + 3 × {mlp_width_count}) × {element_size} B (MLP)"},
    {"explain.activations.transformers.prefill_all_logits.formula",
     "prefill peak: logits of every prompt position (lm_head output + fp32 copy, transformers < 4.45) or one layer's temporaries, above the cache not yet filled"},
    {"explain.activations.transformers.prefill_all_logits.values",
     "{prompt_tokens_count} prompt tokens × {vocab_count} vocab × ({element_size} + 4) B"},
    {"explain.activations.vllm.formula",
     "profile run at max_num_batched_tokens (one layer's temporaries) + sampler logits + CUDA graphs"},
    {"explain.activations.vllm.values",
     "{tokens_count} tokens × (2 × {hidden_count} + 3 × {mlp_width_count}) × {element_size} B + 0.5 GiB graphs"},
    {"explain.device_map.embeddings",
     " and the token embeddings"},
    {"explain.device_map.output_head",
     " and the output head (the logits are made there)"},
    {"explain.device_map.share",
     " — device_map=\"auto\" over {gpus} GPUs, accelerate's layer split: the fullest is GPU {gpu}, with {layers} of the {all_layers} layers ({first}–{last}), every attention head of each"},
    {"explain.divided_over_gpus",
     " ÷ {gpus} GPUs"},
    {"explain.equals",
     " = {total_bytes}"},
    {"explain.kv_cache.attention.formula",
     "2 × layers × KV heads × head_dim × tokens × batch × bytes per element"},
    {"explain.kv_cache.attention.values",
     "{layers} layers × 2 × {kv_heads} KV heads × {head_dim} head_dim × {tokens_count} tokens × {batch} × {per_element_b} ({format})"},
    {"explain.kv_cache.mla.formula",
     "layers × (kv_lora_rank + qk_rope_head_dim) × tokens × batch × bytes per element"},
    {"explain.kv_cache.mla.values",
     "{layers} layers × ({kv_lora_rank} + {rope_dim}) latent × {tokens_count} tokens × {batch} × {per_element_b} ({format})"},
    {"explain.kv_cache.recurrent_state.formula",
     "fixed-size recurrent state of linear-attention/SSM layers (fp32)"},
    {"explain.kv_cache.recurrent_state.values",
     "per sequence × {batch}"},
    {"explain.kv_cache.sliding_stop",
     "; sliding layers stop at {window} tokens"},
    {"explain.llama_cpp.compute.flash",
     ", flash attention"},
    {"explain.llama_cpp.compute.scores",
     ", attention scores n_kv × n_ubatch × {heads} heads × 4 B"},
    {"explain.llama_cpp.compute.values",
     "n_ubatch {ubatch}, {outputs} logit rows, {cells_count} KV cells"},
    {"explain.llama_cpp.compute_device.formula",
     "GPU compute buffer: ggml's graph allocator over one micro-batch's graph (sched_reserve), its high-water mark"},
    {"explain.llama_cpp.compute_host.formula",
     "CPU compute buffer: ggml's graph allocator over one micro-batch's graph (sched_reserve), its high-water mark"},
    {"explain.llama_cpp.compute_inputs.formula",
     "host compute buffer: the graph's inputs (tokens, positions, masks) and the token embedding lookup, on the CPU"},
    {"explain.llama_cpp.compute_inputs.values",
     "n_ubatch {ubatch}, hidden {hidden_count}, {cells_count} KV cells"},
    {"explain.llama_cpp.kv.values",
     "{layers} layers × 2 × {kv_heads} KV heads × {head_dim} head_dim × {cells_count} cells × {per_element_b} ({format})"},
    {"explain.llama_cpp.kv_full.formula",
     "KV cache of the full-attention layers: K and V rows for every cell (the context padded to 256)"},
    {"explain.llama_cpp.kv_mla.formula",
     "KV cache of the MLA layers: the latent and the rope key per cell, no V"},
    {"explain.llama_cpp.kv_mla.values",
     "{layers} layers × ({kv_lora_rank} + {rope_dim}) × {cells_count} cells × {per_element_b} ({format})"},
    {"explain.llama_cpp.kv_sliding.formula",
     "KV cache of the sliding-window layers: the window plus one micro-batch, padded to 256 cells"},
    {"explain.llama_cpp.kv_streams",
     " × {streams} streams (one per sequence)"},
    {"explain.llama_cpp.output.formula",
     "output buffer: one row of logits per sequence (output_reserve), in host memory"},
    {"explain.llama_cpp.output.values",
     "{sequences} × {vocab_count} vocab × 4 B"},
    {"explain.llama_cpp.weights_cpu.formula",
     "CPU model buffer (--no-mmap): the CPU's tensors read into RAM, each padded to 32 B"},
    {"explain.llama_cpp.weights_cpu.values",
     "{tensors_count} tensors ({format})"},
    {"explain.llama_cpp.weights_device.formula",
     "GPU model buffer: the tensors of the layers on the GPU (the output layer first), each padded to 128 B"},
    {"explain.llama_cpp.weights_device.values",
     "{tensors_count} tensors of {gpu_layers} layers (of {layers} + the output layer)"},
    {"explain.llama_cpp.weights_mapped.formula",
     "CPU_Mapped model buffer: the GGUF file's range from the first to the last tensor kept on the CPU (token_embd always), mapped from the file"},
    {"explain.llama_cpp.weights_mapped.values",
     "{tensors_count} tensors ({format})"},
    {"explain.llama_cpp.weights_repack.formula",
     "CPU_REPACK model buffer: a copy of the CPU's matrices in the interleaved rows of its kernels (Q4_0, Q4_K, IQ4_NL, MXFP4 on x86)"},
    {"explain.llama_cpp.weights_repack.values",
     "{tensors_count} matrices ({cpu})"},
    {"explain.overhead.cuda_context.formula",
     "CUDA context with lazy module loading (driver, kernels), per GPU"},
    {"explain.overhead.cuda_context.values",
     "426 MiB (measured, PyTorch 2.10 + CUDA 13)"},
    {"explain.overhead.cuda_context_short.formula",
     "CUDA context (lazy module loading)"},
    {"explain.overhead.cuda_context_short.values",
     "426 MiB"},
    {"explain.weights.plain.formula",
     "parameters × bytes per parameter"},
    {"explain.weights.plain.values",
     "{params_count} params × {per_param_b} ({format})"},
    {"explain.weights.quantized.formula",
     "sum over tensors of their stored bytes (quantized blocks with scales and zeros; tensors kept at higher precision)"},
    {"explain.weights.quantized.values",
     "{params_count} params × {bits} bits effective ({format})"},
    {"feature.attention_output_gate",
     "gated attention: q_proj also emits a sigmoid output gate (q_proj twice as wide)"},
    {"feature.attention_sinks",
     "attention sinks: one learned sink logit per head and layer ({heads} parameters a layer)"},
    {"feature.chunked",
     "{chunked} of {layers} layers attend within {chunk_count}-token chunks (local attention): only the other {full} keep the whole context in the KV cache"},
    {"feature.embedding_scaled",
     "embeddings scaled by √hidden_size (no extra memory)"},
    {"feature.explicit_head_dim",
     "head_dim {head_dim} set explicitly (hidden_size / heads would give {implied_head_dim}): {heads} × {head_dim} = {query_width} query width vs hidden {hidden}"},
    {"feature.extra_params",
     "encoders outside the text model"},
    {"feature.extra_params_rest",
     ": {params_count} parameters, held in memory but not in the per-token decoder compute"},
    {"feature.gqa",
     "GQA {heads}:{kv_heads} — KV cache {smaller_ratio} smaller than MHA"},
    {"feature.hybrid",
     "hybrid: {recurrent} of {layers} layers are {mixer_term} with a fixed {state_count}-value state per sequence ({state_bytes} at fp32) instead of a KV cache; {attention} layers keep a KV cache"},
    {"feature.image_tokens",
     "images enter the context as tokens: a {side} × {side} image takes {tokens_count} tokens"},
    {"feature.kv_shape",
     "{kv_heads} KV heads × {head_dim}"},
    {"feature.kv_shape_values",
     " (values {v_head_dim})"},
    {"feature.list_separator",
     ", "},
    {"feature.mha",
     "MHA: {heads} KV heads, one per query head (no KV sharing)"},
    {"feature.mla",
     "MLA: {latent_count} cached values per token and layer (kv_lora_rank {kv_lora_rank} + rope key {rope_dim}) instead of {mha_count} for {heads}-head attention — KV cache {smaller_ratio} smaller"},
    {"feature.mlp_bias",
     "biases on the MLP projections"},
    {"feature.moe",
     "MoE: {active} of {experts} experts active"},
    {"feature.moe_expert_bias",
     "router and expert projections have biases"},
    {"feature.moe_params",
     " — {active_count} of {total_count} parameters used per token; memory must hold all experts"},
    {"feature.moe_router_bias",
     "the router has a per-expert bias (score correction)"},
    {"feature.moe_shared",
     " plus {shared} shared experts"},
    {"feature.moe_shared_one",
     " plus 1 shared expert"},
    {"feature.moe_some_layers",
     "{moe} of {layers} layers are MoE; the other {dense} keep a dense MLP"},
    {"feature.moe_some_layers_no_mlp",
     "{moe} of {layers} layers are MoE, {dense} dense and {without_mlp} have no MLP (a mixer only)"},
    {"feature.mqa",
     "MQA: 1 KV head shared by {heads} query heads — KV cache {heads}× smaller than MHA"},
    {"feature.mtp",
     "MTP: {layers} multi-token-prediction layers ({params_count} parameters) ship in the checkpoint but are not counted: loaded only for speculative decoding"},
    {"feature.mtp_one",
     "MTP: {layers} multi-token-prediction layer ({params_count} parameters) ships in the checkpoint but is not counted: loaded only for speculative decoding"},
    {"feature.norms_per_layer",
     "{norms} norms per layer (before and after attention and MLP)"},
    {"feature.one_norm_per_layer",
     "1 norm per layer (a single pre-norm)"},
    {"feature.per_layer_kv_shapes",
     "per-layer KV shapes: "},
    {"feature.plain_mlp",
     "plain (non-gated) MLP: up and down projections only"},
    {"feature.qk_norm",
     "QK-norm: RMSNorm on each query and key head"},
    {"feature.qk_norm_full_width",
     "QK-norm: RMSNorm over the full query and key width"},
    {"feature.qkv_bias",
     "biases on the q, k and v projections (not on o)"},
    {"feature.qkvo_bias",
     "biases on the q, k, v and o projections"},
    {"feature.shared_kv_layers",
     "{layers} layers reuse an earlier layer's keys and values: no KV cache of their own"},
    {"feature.sliding_all",
     "all {layers} layers use a {window_count}-token sliding window: the KV cache stops growing at {window_count} tokens"},
    {"feature.sliding_pattern",
     " ({local} local : 1 global)"},
    {"feature.sliding_pattern_alternating",
     " (alternating local and global)"},
    {"feature.sliding_some",
     "{sliding} of {layers} layers use a {window_count}-token window"},
    {"feature.sliding_some_rest",
     ": only the other {full} keep the whole context in the KV cache"},
    {"feature.sparse_indexer",
     "sparse attention (DSA): a {heads}-head indexer picks {topk_count} context tokens per query and caches a {head_dim}-value key per token and layer"},
    {"feature.stored_weights",
     "the checkpoint stores its weights as {format} (config quantization_config): weights \"{format}\" sizes it as published"},
    {"feature.tied_embeddings",
     "tied embeddings: the {vocab_count} × {hidden_count} table serves as input and output ({params_count} parameters stored once)"},
    {"feature.untied_embeddings",
     "untied embeddings: separate input and output tables of {vocab_count} × {hidden_count} ({params_count} parameters each)"},
    {"feature.vision.gemma4",
     "Gemma 4 vision encoder ({layers} layers) and embedder"},
    {"feature.vision.llama4",
     "Llama 4 vision encoder ({layers} layers), adapter and projector"},
    {"feature.vision.pixtral",
     "Pixtral vision encoder ({layers} layers) and projector"},
    {"feature.vision.qwen2_5_vl",
     "Qwen2.5-VL vision encoder ({layers} blocks) and patch merger"},
    {"feature.vision.qwen3_vl",
     "Qwen3-VL vision encoder ({layers} blocks) and patch merger"},
    {"feature.vision.siglip",
     "SigLIP vision tower ({layers} layers)"},
    {"feature.vision.siglip_projector",
     "SigLIP vision tower ({layers} layers) and multimodal projector"},
    {"fix.batch",
     "batch {batch_count} instead of {current_count}"},
    {"fix.checkpointing",
     "gradient checkpointing on"},
    {"fix.context",
     "a context of {tokens_count} tokens instead of {current_count}"},
    {"fix.gpus",
     "{gpus} GPUs, tensor parallel"},
    {"fix.gpus_device_map",
     "{gpus} GPUs, whole layers on each (device_map=\"auto\")"},
    {"fix.kv_cache",
     "8-bit KV cache ({format_term})"},
    {"fix.memory_option",
     "the {memory_bytes} configuration"},
    {"fix.method_lora",
     "LoRA instead of training every weight"},
    {"fix.method_qlora",
     "QLoRA: a 4-bit base under the adapters"},
    {"fix.micro_batch",
     "micro-batch 1 with gradient accumulation {accumulation_count} (the same update, slower)"},
    {"fix.optimizer_8bit",
     "8-bit AdamW (bitsandbytes)"},
    {"fix.result.comfortable",
     ": fits comfortably with {headroom_bytes} to spare"},
    {"fix.result.tight",
     ": fits, tight, with {headroom_bytes} to spare"},
    {"fix.seq_len",
     "sequences of {tokens_count} tokens instead of {current_count}"},
    {"fix.trained_context",
     "a context within the model's trained {tokens_count} tokens"},
    {"fix.weights",
     "{format_term} weights"},
    {"fix.zero3",
     "{gpus} GPUs with ZeRO-3 (parameters, gradients and optimizer states sharded)"},
    {"hardware.unsupported.neuron",
     "not a GPU: needs the AWS Neuron SDK"},
    {"hardware.unsupported.no_speed_figures",
     "its accelerator ({accelerator}) has no speed figures in the catalog"},
    {"hardware.unsupported.ram_unknown",
     "maximum RAM not known"},
    {"note.llama_cpp.phi3_window_off",
     "Phi-3's sliding window is switched off in llama.cpp (src/models/phi3.cpp): every layer caches the whole context"},
    {"note.llama_cpp.repacked",
     "the CPU backend ({cpu}) keeps a repacked copy of {repack_bytes} of matrices (CPU_REPACK)"},
    {"note.llama_cpp.sliding_cells",
     "sliding-window layers cache the window ({window} tokens) plus one micro-batch ({ubatch}), padded to 256: {cells_count} cells per stream"},
    {"note.llama_cpp.streams",
     "each of the {streams} sequences has its own KV stream of {cells_count} cells (-kvu shares one)"},
    {"note.llama_cpp.window_unused",
     "llama.cpp does not use this model's sliding window for its architecture: every layer caches the whole context"},
    {"recommend.allocator_runs_out",
     "PyTorch's caching allocator runs out during the prompt although {headroom_bytes} would be left (fragmentation under eager attention)"},
    {"recommend.at_context_k",
     " at {k}k context"},
    {"recommend.at_context_tokens",
     " at {tokens}-token context"},
    {"recommend.buy",
     ", {price_usd} to buy"},
    {"recommend.fits",
     "fits with {headroom_bytes} to spare"},
    {"recommend.fits_in_ram",
     "fits in RAM (needs {needed_bytes} with the OS) with {headroom_bytes} to spare"},
    {"recommend.fits_multi_gpu",
     "on {gpus} GPUs fits with {headroom_bytes} per GPU to spare"},
    {"recommend.fits_unified",
     "with {memory_bytes} of unified memory fits the GPU's share with {headroom_bytes} to spare"},
    {"recommend.fix.configuration",
     " the {memory_bytes} configuration"},
    {"recommend.fix.context",
     "a context of up to {tokens} tokens fits"},
    {"recommend.fix.format",
     "{format} weights fit"},
    {"recommend.fix.offload",
     "partial offload (llama.cpp -ngl {gpu_layers}): {gpu_layers} of {layers} layers on the GPU, the rest in RAM, ~{tokens_per_s} tokens/s"},
    {"recommend.fix.on_gpus",
     " on {gpus} GPUs"},
    {"recommend.fix.to_spare",
     " with {headroom_bytes} to spare"},
    {"recommend.largest_configuration",
     " in its largest configuration ({memory_bytes})"},
    {"recommend.per_million_tokens",
     " ({per_million_tokens_usd} per million tokens)"},
    {"recommend.rent",
     ", {per_hour_usd}/h"},
    {"recommend.short_of_ram",
     "short by {short_bytes} of RAM"},
    {"recommend.short_per_device",
     "short by {short_bytes} per device"},
    {"recommend.speed",
     ", ~{tokens_per_s} tokens/s"},
    {"recommend.speed_batch",
     ", ~{per_sequence_tokens_per_s} tokens/s per sequence ({batch_tokens_per_s} for the batch of {batch})"},
    {"recommend.speed_unknown",
     ", speed unknown (no bandwidth figure)"},
    {"recommend.tight",
     "; tight: less than the {margin_bytes} margin"},
    {"speed.basis.base",
     "Speed from the {name}'s figures (memory bandwidth and compute)"},
    {"speed.basis.datasheet",
     "Speed from the {name}'s datasheet: {bandwidth} GB/s of memory bandwidth"},
    {"speed.basis.host",
     "Speed from the RAM of the PC behind the {name}: {bandwidth} GB/s (a typical dual-channel DDR5 desktop)"},
    {"speed.basis.measured",
     "Speed from what a probe measured on {name}: {bandwidth} GB/s"},
    {"speed.basis.typical_gpu",
     "Speed as for a typical GPU with {memory_bytes}: the catalog's {name} ({bandwidth} GB/s, the median of its cards with that memory). Choose your GPU for its own figures"},
    {"speed.basis.typical_mac",
     "Speed as for a typical Mac with {memory_bytes}: the catalog's {name} ({bandwidth} GB/s, the median of its Apple chips sold with that memory). Choose your Mac for its own figures"},
    {"speed.basis.typical_pc",
     "Speed as for a typical PC: dual-channel DDR5-5200 memory ({bandwidth} GB/s) and 8 CPU cores with AVX2. Choose your CPU for its own figures"},
    {"term.bound.communication",
     "communication between GPUs"},
    {"term.bound.compute",
     "compute"},
    {"term.bound.cpu_layers",
     "CPU layers (host memory bandwidth)"},
    {"term.bound.engine_overhead",
     "engine overhead per step"},
    {"term.bound.expert_loop",
     "per-expert loop (host)"},
    {"term.bound.kernel_launches",
     "kernel launches (host overhead)"},
    {"term.bound.kv_cache_reads",
     "KV-cache reads"},
    {"term.bound.memory_bandwidth",
     "memory bandwidth"},
    {"term.bound.memory_bandwidth_cpu",
     "memory bandwidth (CPU)"},
    {"term.bound.synchronizing_kernels",
     "synchronizing kernels"},
    {"term.json.array",
     "an array"},
    {"term.json.binary",
     "binary data"},
    {"term.json.boolean",
     "a boolean"},
    {"term.json.null",
     "null"},
    {"term.json.number",
     "a number"},
    {"term.json.object",
     "an object"},
    {"term.json.string",
     "a string"},
    {"term.mixer.gated_delta_net",
     "linear attention (gated delta net)"},
    {"term.mixer.mamba",
     "Mamba SSM"},
    {"term.mixer.mamba2",
     "Mamba-2 SSM"},
    {"term.quantity.cpu_cores",
     "CPU cores"},
    {"term.quantity.device_memory_bytes",
     "device memory in bytes"},
    {"term.quantity.gb_per_s",
     "GB/s"},
    {"term.quantity.gpu_memory_bytes",
     "GPU memory in bytes"},
    {"term.quantity.gpu_memory_per_gpu_bytes",
     "memory per GPU in bytes"},
    {"term.quantized_base.gptq_int4",
     "GPTQ int4 g128"},
    {"term.quantized_base.nf4",
     "NF4 + double quantization"},
    {"term.quantized_base.nf4_single",
     "NF4"},
    {"throughput.bandwidth_unknown",
     "the hardware's memory bandwidth is not known"},
    {"verdict.beyond_context.capped",
     "; but Ollama cuts the context to the {trained_count} tokens the model was trained for: a longer prompt is truncated"},
    {"verdict.beyond_context.refused",
     "Does not run: {engine} refuses {context_count} tokens of context, more than the {trained_count} the model was trained for"},
    {"verdict.beyond_context.warned",
     "; but the context is longer than the {trained_count} tokens the model was trained for: it runs, and its output there is not to be trusted"},
    {"verdict.comfortable",
     "Fits comfortably: {headroom_bytes} to spare, at least the {margin_bytes} margin"},
    {"verdict.no_fit",
     "Does not fit: {short_bytes} short"},
    {"verdict.no_fit_allocator",
     "Does not fit: the tensors would leave {headroom_bytes}, but PyTorch's caching allocator runs out during the prompt: the K and V kept between layers split the blocks it cached for the attention scores (eager attention; flash attention has no such blocks)"},
    {"verdict.offload",
     "Does not fit on the GPU alone: runs with {gpu_layers_count} of {layers_count} layers on the GPU and the rest in RAM"},
    {"verdict.offload_embeddings",
     "Runs with all {layers_count} layers on the GPU and the token embeddings in RAM: the GPU cannot hold them too"},
    {"verdict.offload_speed",
     ", at about {tokens_per_s} tokens/s"},
    {"verdict.tight",
     "Fits, but tight: {headroom_bytes} to spare, less than the {margin_bytes} margin kept for fragmentation, other programs and the estimate's error"},
    {"warning.batch.llama_cpp_max_sequences",
     "batch: llama.cpp serves at most {max} sequences at once (LLAMA_MAX_SEQ); counted for {max}"},
    {"warning.budget.hardware_wins",
     "budget_bytes: ignored, the hardware named decides what fits"},
    {"warning.config.ffn_linear",
     "config: {block} replaces its FFN with one linear layer, counted here as a gated MLP of width hidden / 3"},
    {"warning.config.gemma3_defaults",
     "config: Gemma 3 fields absent from the config take transformers' Gemma3TextConfig defaults: {fields}"},
    {"warning.config.gemma4_per_layer_embeddings",
     "config: Gemma 4 per-layer input embeddings (hidden_size_per_layer_input) are not counted"},
    {"warning.config.ignored_fields",
     "config: {fields} field(s) not used for sizing were ignored: {names}"},
    {"warning.config.latent_moe",
     "config: Nemotron-H latent MoE (moe_latent_size) is not modelled; experts are counted at the hidden size"},
    {"warning.config.quant_method_unknown",
     "config: quantization_config quant_method \"{method}\" has no weights format of its own here; give `weights`"},
    {"warning.config.vision_not_counted",
     "config: the vision tower (vision_config model_type \"{model_type}\") is not counted; only the text model is sized"},
    {"warning.disk.bnb_quantizes_at_load",
     "disk: bitsandbytes usually quantizes at load time (load_in_4bit/load_in_8bit) from the 16-bit checkpoint, which then is the download ({checkpoint_bytes}); disk_bytes is a pre-quantized bitsandbytes checkpoint"},
    {"warning.disk.gguf_mmap",
     "disk: llama.cpp maps the GGUF file (mmap), so the file's pages also sit in the OS page cache (host RAM) while it runs, unless --no-mmap; the file also holds the tokenizer and metadata"},
    {"warning.draft.vocab_differs",
     "draft: its vocabulary ({draft_vocab_count} tokens) is more than 128 tokens off the model's ({vocab_count}); llama.cpp then refuses the pair or translates tokens between them"},
    {"warning.engine.litgpt_separate_lm_head",
     "engine litgpt: litgpt builds lm_head as a layer of its own and loads the checkpoint's output head into it, so the head the config ties to the embedding is held separately ({params_count} parameters more)"},
    {"warning.engine.ollama_num_ctx_clamped",
     "engine ollama: Ollama lowers num_ctx to the model's trained context, {num_ctx_count} tokens"},
    {"warning.engine.ollama_ps",
     "engine ollama: `ollama ps` shows the sum of llama-server's buffers"},
    {"warning.engine.ollama_ps_gpu",
     "engine ollama: `ollama ps` shows the sum of llama-server's buffers and, with every layer on the GPU, only the GPU's: the model's host RAM (token_embd, output and input buffers) is not in it"},
    {"warning.engine.ollama_single_sequence",
     "engine ollama: Ollama runs this model family (or an embedding model) with one sequence at a time"},
    {"warning.engine.vllm_reserves_gpu",
     "engine vllm: vLLM reserves gpu_memory_utilization (default 0.9) of the GPU and fills the rest of it with KV-cache blocks, so nvidia-smi shows ~90% of the card whatever the request; the figure here is what the request needs"},
    {"warning.engine_version.llama_cpp_graph_build",
     "engine_version {version}: a llama.cpp build before graph reuse (the default from August 2025) builds each forward's compute graph on the host while the device waits, {per_layer_us} µs per layer as measured on a Ryzen 9 7950X; each decode includes it, and a slower host takes longer"},
    {"warning.engine_version.no_rule",
     "engine_version {version}: no figure of the {engine} model differs by version, so the estimate is that of the releases its figures were measured on; the version is kept in the settings"},
    {"warning.engine_version.vllm_step_overhead",
     "engine_version {version}: vLLM's time per step outside the model is v0.5.3's measured {overhead_ms} ms (vLLM's v0.6.0 performance blog); from 0.6 output processing overlaps the next step and multi-step scheduling is opt-in, which no published per-step figure covers, so this version may decode faster than estimated"},
    {"warning.engine_version.vllm_v1_step_overhead",
     "engine_version {version}: vLLM's V1 engine (the default from 0.8); its host time per step outside the model, {overhead_ms} ms, is an assumption (V0 measured 3.8 ms; V1 keeps a persistent batch and processes outputs in another process), not a published measurement"},
    {"warning.gpus.cpu_inference",
     "gpus 0: CPU inference, everything is in RAM (host_bytes); the runtime's own memory (process, libraries) is not included"},
    {"warning.gpus.heads_do_not_divide",
     "gpus: {heads} attention heads do not divide over {gpus} GPUs; engines such as vLLM refuse this tensor-parallel size"},
    {"warning.group_size.ignored",
     "group_size: ignored, weights \"{format}\" have no group size to choose (GPTQ, AWQ and MLX formats do)"},
    {"warning.kv_cache.quantized_v_needs_flash_attention",
     "kv_cache: llama.cpp needs flash attention (-fa) for a quantized V cache"},
    {"warning.llama_cpp.parallel_below_batch",
     "parallel: llama.cpp serves {parallel} sequences at once; the other {batch} − {parallel} requests wait for a free slot"},
    {"warning.memory.tied_embedding_held_twice",
     "memory: the tied embedding is stored once on disk but held twice by llama.cpp: token_embd in host memory and the output copy on the GPU"},
    {"warning.model.params_only",
     "model: only a parameter count was given, so the KV cache and activations are unknown and counted as 0; give layers and hidden_size, or a config"},
    {"warning.model.params_with_shape",
     "model: KV cache and activations use the given layers and hidden_size with multi-head attention and a {mlp_width}-wide MLP; the parameter count is taken as given"},
    {"warning.request.engine_field_ignored",
     "{field}: applies to engine {applies}; ignored with engine {engine}"},
    {"warning.request.unknown_field",
     "request: unknown field \"{field}\" ignored"},
    {"warning.weights.awq_fused_cache",
     "weights {format}: with fused modules (AwqConfig do_fuse=True) AutoAWQ preallocates the KV cache for fuse_max_seq_len × batch ({cache_bytes} at 2048 tokens), whatever the request's context"},
    {"warning.weights.gguf_in_other_engine",
     "weights {format}: a GGUF file type runs in llama.cpp (engine llama.cpp); {engine} loads GGUF by dequantizing or with its own kernels, so its memory differs"},
    {"warning.weights.gptq_exllamav2_scratch",
     "weights {format}: with the ExLlamaV2 kernels AutoGPTQ allocates a scratch buffer per GPU for the largest layer (dequantized weight + 2048 × 8 token outputs): {scratch_bytes} more, not counted here"},
    {"warning.weights.llama_cpp_repack",
     "weights: llama.cpp repacks {repack_bytes} of the weights for the CPU's matrix kernels; the mapped file's copy of them ({mapped_bytes}) is read once, so the kernel may drop it when RAM is short (--no-mmap does not load it at all)"},
    {"warning.weights.mlx_format",
     "weights {format}: MLX formats run in MLX on Apple silicon (unified memory); the engine's own rules do not apply"},
};

/// The formats' names as templates: one source, the catalog (precision.cpp), for the page's menus.
constexpr std::string_view kFormatTerm = "term.format.";
constexpr std::string_view kKvFormatTerm = "term.kv_format.";

std::vector<MessageTemplate> catalog_names() {
  static const std::vector<std::string> ids = [] {
    std::vector<std::string> v;
    for (auto* f = weight_formats_begin(); f != weight_formats_end(); ++f) v.push_back(std::string(kFormatTerm) + std::string(f->id));
    for (auto* f = kv_cache_formats_begin(); f != kv_cache_formats_end(); ++f) v.push_back(std::string(kKvFormatTerm) + std::string(f->id));
    return v;
  }();
  std::vector<MessageTemplate> out;
  std::size_t i = 0;
  for (auto* f = weight_formats_begin(); f != weight_formats_end(); ++f) out.push_back({ids[i++], f->name});
  for (auto* f = kv_cache_formats_begin(); f != kv_cache_formats_end(); ++f) out.push_back({ids[i++], f->name});
  return out;
}

std::optional<MessageTemplate> catalog_name(std::string_view id) {
  if (id.substr(0, kFormatTerm.size()) == kFormatTerm) {
    if (const WeightFormat* f = find_weight_format(id.substr(kFormatTerm.size()))) return MessageTemplate{id, f->name};
  }
  if (id.substr(0, kKvFormatTerm.size()) == kKvFormatTerm) {
    if (const KvCacheFormat* f = find_kv_cache_format(id.substr(kKvFormatTerm.size()))) return MessageTemplate{id, f->name};
  }
  return std::nullopt;
}

const MessageTemplate* find_template(std::string_view id) {
  const MessageTables linked = linked_message_tables();
  for (std::size_t i = 0; i < linked.count; ++i) {
    const MessageTable& table = linked.tables[i];
    const auto* it = std::lower_bound(table.begin, table.end, id, [](const MessageTemplate& t, std::string_view key) { return t.id < key; });
    if (it != table.end && it->id == id) return it;
  }
  return nullptr;
}

/// 32768 → "32,768".
std::string grouped(std::int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n);
  std::string out;
  const int lead = static_cast<int>(digits.size()) % 3;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (static_cast<int>(i) - lead) % 3 == 0) out += ',';
    out += digits[i];
  }
  return n < 0 ? "-" + out : out;
}

/// 3353032704 → "3.35B", 30532122624 → "30.5B", 544997376 → "545M".
std::string short_count(std::int64_t n) {
  const double v = static_cast<double>(n);
  if (v >= 1e12) return general_text(v / 1e12, 3) + "T";
  if (v >= 1e9) return general_text(v / 1e9, 3) + "B";
  if (v >= 1e6) return general_text(v / 1e6, 3) + "M";
  if (v >= 1e3) return general_text(v / 1e3, 3) + "K";
  return std::to_string(n);
}

/// 1153433.6 bytes → "1.15 MB" (decimal units, as the rest of the display).
std::string short_bytes(std::int64_t bytes) {
  const double v = static_cast<double>(bytes);
  if (v >= 1e9) return general_text(v / 1e9, 3) + " GB";
  if (v >= 1e6) return general_text(v / 1e6, 3) + " MB";
  if (v >= 1e3) return general_text(v / 1e3, 3) + " kB";
  return std::to_string(bytes) + " B";
}

std::string format_arg(const MessageArg& a) {
  switch (a.kind) {
    case MessageArg::Kind::integer: return std::to_string(a.integer);
    case MessageArg::Kind::decimal: return fixed_text(a.real, a.digits);
    case MessageArg::Kind::significant: return fmt::count(a.real);
    case MessageArg::Kind::count: return fmt::count(a.integer);
    case MessageArg::Kind::grouped: return grouped(a.integer);
    case MessageArg::Kind::short_count: return short_count(a.integer);
    case MessageArg::Kind::bytes: return fmt::gb(a.integer);
    case MessageArg::Kind::bytes_1: return fixed_text(static_cast<double>(a.integer) / 1e9, 1) + " GB";
    case MessageArg::Kind::bytes_short: return short_bytes(a.integer);
    case MessageArg::Kind::memory_size:
      // A memory configuration as the vendor names it ("64 GB" for 64 GiB of DRAM).
      return fixed_text(static_cast<double>(a.integer) / static_cast<double>(1LL << 30), 0) + " GB";
    case MessageArg::Kind::bytes_each: return fmt::bytes_per(a.real);
    case MessageArg::Kind::ratio:
      if (a.denominator != 0 && a.integer % a.denominator == 0) return std::to_string(a.integer / a.denominator) + "×";
      return general_text(a.real, 3) + "×";
    case MessageArg::Kind::usd: {
      // Thousands grouped, as the page's currency format writes them ($2,312).
      std::string digits = fixed_text(a.real, a.digits);
      const std::size_t sign = digits[0] == '-' ? 1 : 0;
      for (std::size_t i = std::min(digits.find('.'), digits.size()); i > sign + 3; i -= 3) digits.insert(i - 3, ",");
      return (sign ? "-$" : "$") + digits.substr(sign);
    }
    case MessageArg::Kind::text: return a.text;
    case MessageArg::Kind::term: return render_en(Message("term." + a.text));
  }
  return std::string();
}

bool is_name_char(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

}  // namespace

MessageTable common_message_templates() { return {std::begin(kTemplates), std::end(kTemplates)}; }

std::vector<MessageTemplate> all_message_templates() {
  std::vector<MessageTemplate> out;
  const MessageTables linked = linked_message_tables();
  for (std::size_t i = 0; i < linked.count; ++i) out.insert(out.end(), linked.tables[i].begin, linked.tables[i].end);
  for (const MessageTemplate& t : catalog_names()) out.push_back(t);
  std::sort(out.begin(), out.end(), [](const MessageTemplate& a, const MessageTemplate& b) { return a.id < b.id; });
  return out;
}

std::string render_en(const Message& message) {
  const MessageTemplate* t = find_template(message.id);
  std::optional<MessageTemplate> named;
  if (t == nullptr && (named = catalog_name(message.id))) t = &*named;
  if (t == nullptr) throw std::logic_error("no English template for message \"" + message.id + "\"");
  std::string out;
  const std::string_view text = t->en;
  // The text between placeholders goes in one append (a character at a time, each append would be
  // a call of its own in the -Oz WASM build).
  std::size_t literal_from = 0;
  for (std::size_t i = text.find('{'); i != std::string_view::npos; i = text.find('{', i + 1)) {
    std::size_t end = i + 1;
    while (end < text.size() && is_name_char(text[end])) ++end;
    if (end < text.size() && text[end] == '}' && end > i + 1) {
      const std::string_view name = text.substr(i + 1, end - i - 1);
      const auto arg = std::find_if(message.args.begin(), message.args.end(), [&](const MessageArg& a) { return a.name == name; });
      if (arg == message.args.end()) throw std::logic_error("message \"" + message.id + "\" has no argument " + std::string(name));
      out.append(text.data() + literal_from, i - literal_from);
      out += format_arg(*arg);
      literal_from = end + 1;
      i = end;
    }
  }
  out.append(text.data() + literal_from, text.size() - literal_from);
  for (const auto& part : message.parts) out += render_en(part);
  return out;
}

void write_message_json(JsonWriter& w, const Message& message) {
  w.begin_object();
  w.field("id", message.id);
  if (!message.args.empty()) {
    w.key("args").begin_object();
    // A name given twice keeps its first place and its last value (as the object it was built as did).
    for_each_last_by_name(message.args, [](const MessageArg& a) -> const std::string& { return a.name; }, [&](const MessageArg& a) {
      w.key(a.name);
      switch (a.kind) {
        case MessageArg::Kind::decimal:
        case MessageArg::Kind::significant:
        case MessageArg::Kind::bytes_each:
        case MessageArg::Kind::usd:
        case MessageArg::Kind::ratio: w.value(a.real); break;
        case MessageArg::Kind::text:
        case MessageArg::Kind::term: w.value(a.text); break;
        default: w.value(a.integer); break;
      }
    });
    w.end_object();
  }
  if (!message.parts.empty()) {
    w.key("parts").begin_array();
    for (const auto& part : message.parts) write_message_json(w, part);
    w.end_array();
  }
  w.end_object();
}

nlohmann::json message_data(const Message& message) {
  JsonWriter w;
  write_message_json(w, message);
  return parse_json(w.text());
}

}  // namespace llmsizer::edge
