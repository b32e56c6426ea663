// SPDX-License-Identifier: MIT
#include "llmsizer/message_text.hpp"

#include <algorithm>
#include <optional>
#include <cstdio>
#include <stdexcept>

#include "format.hpp"
#include "llmsizer/precision.hpp"

namespace llmsizer::edge {
namespace {

/// The English templates, sorted by id (a test checks the order and that every id is unique).
/// `{name}` is replaced by the argument `name`; other braces are literal.
constexpr MessageTemplate kTemplates[] = {
    {"cpu_vs_gpu.cpu_is_enough",
     "{cpu} alone gives ~{cpu_tokens_per_s} tokens/s for one sequence, above reading speed ({reading_tokens_per_s} tokens/s): a CPU with {format} weights is enough for one reader; the GPU gives ~{gpu_tokens_per_s} tokens/s"},
    {"cpu_vs_gpu.cpu_stays_ahead",
     "; the CPU stays ahead up to batch 1024"},
    {"cpu_vs_gpu.gpu_ahead_from_batch",
     "; the GPU pulls ahead from batch {batch}"},
    {"cpu_vs_gpu.use_the_gpu",
     "{cpu} alone gives ~{cpu_tokens_per_s} tokens/s, below reading speed ({reading_tokens_per_s} tokens/s): use the GPU (~{gpu_tokens_per_s} tokens/s) or a smaller weight format"},
    {"error.boolean",
     "must be true or false; got {got}"},
    {"error.config.heads_divide_hidden",
     "must divide hidden_size ({hidden}) when head_dim is not given; got {heads}"},
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
    {"error.config.not_object",
     "must be a config.json object"},
    {"error.cost.not_object",
     "must be an object such as {\"lifetime_years\": 3, \"electricity_usd_per_kwh\": 0.17}"},
    {"error.cpu.not_a_cpu",
     "must be a CPU id from `llmsizer hardware` (kind cpu); got \"{id}\""},
    {"error.engine_version",
     "must be a version such as \"4.38\" or \"4.46.0\" (major.minor, from 1.0 to 99.99); got \"{got}\""},
    {"error.file.header_unreadable",
     "could not read the file header: {detail}"},
    {"error.file.index_read_whole",
     "a safetensors index is read whole; read all {file_size} bytes"},
    {"error.file.unreadable",
     "could not read the model file: {detail}"},
    {"error.gguf.alignment",
     "general.alignment must be a power of two from 1 to {max}; the file has {got}"},
    {"error.gguf.alignment_not_integer",
     "general.alignment must be a power of two from 1 to {max}; the file has a non-integer"},
    {"error.gguf.array_beyond_file",
     "the array of {entry_term} {entry} claims {elements} elements, more than the rest of the file ({left} bytes) can hold; the file is corrupt"},
    {"error.gguf.array_too_long",
     "the array of {entry_term} {entry} claims {elements} elements; the limit is {limit}, so the file is corrupt"},
    {"error.gguf.arrays_too_deep",
     "the arrays of {entry_term} {entry} are nested more than {depth} levels deep; this reader accepts at most {depth}"},
    {"error.gguf.beyond_any_file",
     "the GGUF {item_term} of {entry_term} {entry} claims {claimed} bytes, more than any file holds; the file is corrupt"},
    {"error.gguf.beyond_any_file_header",
     "the GGUF {item_term} of the file header claims {claimed} bytes, more than any file holds; the file is corrupt"},
    {"error.gguf.big_endian",
     "this GGUF file is big-endian (version {version} stored big-endian); only little-endian GGUF files are supported"},
    {"error.gguf.bool_value",
     "the bool value of {entry_term} {entry} is {value}; GGUF bools are 0 or 1, so the file is corrupt"},
    {"error.gguf.counts_beyond_file",
     "the GGUF header claims {tensors} tensors and {entries} metadata entries, more than a {file_size}-byte file can hold; the file is corrupt"},
    {"error.gguf.data_past_end",
     "the GGUF tensor data ends at byte {end} but the file has only {file_size} bytes; the file is truncated (an incomplete download?)"},
    {"error.gguf.dimension_beyond_int64",
     "tensor {tensor} has dimension {dimension}, beyond int64; the file is corrupt"},
    {"error.gguf.dimensions_overflow",
     "tensor {tensor} has dimensions whose product overflows int64; the file is corrupt"},
    {"error.gguf.duplicate_key",
     "the metadata key {key} appears twice; the file is corrupt"},
    {"error.gguf.duplicate_tensor",
     "the tensor name {tensor} appears twice; the file is corrupt"},
    {"error.gguf.element_count_overflow",
     "the tensors' element counts add up to more than int64; the file is corrupt"},
    {"error.gguf.key_not_utf8",
     "the key of metadata entry {entry} is not valid UTF-8 (byte {byte}); GGUF keys must be ASCII, so the file is corrupt"},
    {"error.gguf.misaligned",
     "tensor {tensor} starts at data offset {offset}, not a multiple of the alignment {alignment}; the file is corrupt"},
    {"error.gguf.not_gguf",
     "not a GGUF file: it does not start with the bytes \"GGUF\"."},
    {"error.gguf.not_gguf.json",
     " It looks like JSON (a config.json or safetensors index?)."},
    {"error.gguf.not_gguf.older_ggml",
     " It is an older GGML/GGMF/GGJT file: convert it to GGUF with llama.cpp's convert scripts."},
    {"error.gguf.not_gguf.safetensors",
     " It looks like a safetensors file."},
    {"error.gguf.overlap",
     "the data of tensors {previous} and {tensor} overlap (offset {offset} is before the end of the previous tensor, {previous_end}); the file is corrupt"},
    {"error.gguf.partial_block",
     "tensor {tensor} has rows of {row} elements, not a whole number of {type} blocks of {block}; the file is corrupt"},
    {"error.gguf.past_end",
     "the GGUF {item_term} of {entry_term} {entry} runs past the end of the file (it needs the first {needed} bytes, the file has {file_size}); the file is truncated or corrupt"},
    {"error.gguf.past_end_header",
     "the GGUF {item_term} of the file header runs past the end of the file (it needs the first {needed} bytes, the file has {file_size}); the file is truncated or corrupt"},
    {"error.gguf.prefix_ends",
     "the first {given} bytes end inside the GGUF header (at the {item_term} of {entry_term} {entry}); read at least the first {needed} bytes and try again"},
    {"error.gguf.prefix_ends_header",
     "the first {given} bytes end inside the GGUF header (at the {item_term} of the file header); read at least the first {needed} bytes and try again"},
    {"error.gguf.removed_type",
     "tensor {tensor} has ggml type id {type} ({removed_term}), which this reader does not know; known ids are 0-3, 6-30, 34, 35 and 39-41"},
    {"error.gguf.string_too_long",
     "the GGUF {item_term} of {entry_term} {entry} is {length} bytes long; the limit is {limit} bytes, so the file is corrupt"},
    {"error.gguf.string_too_long_header",
     "the GGUF {item_term} of the file header is {length} bytes long; the limit is {limit} bytes, so the file is corrupt"},
    {"error.gguf.tensor_bytes_overflow",
     "tensor {tensor} is too large: its byte size overflows int64; the file is corrupt"},
    {"error.gguf.tensor_end_overflow",
     "tensor {tensor} at data offset {offset} ends beyond any possible file size; the file is corrupt"},
    {"error.gguf.tensor_name_not_utf8",
     "the name of tensor {tensor} is not valid UTF-8 (byte {byte}); the file is corrupt"},
    {"error.gguf.too_many_dimensions",
     "tensor {tensor} has {dimensions} dimensions; ggml allows at most 4 (GGML_MAX_DIMS), so the file is corrupt"},
    {"error.gguf.too_many_metadata",
     "the GGUF header claims {entries} metadata entries; the limit is {limit}, so the file is corrupt"},
    {"error.gguf.too_many_tensors",
     "the GGUF header claims {tensors} tensors; the limit is {limit}, so the file is corrupt"},
    {"error.gguf.unknown_type",
     "tensor {tensor} has ggml type id {type}, which this reader does not know; known ids are 0-3, 6-30, 34, 35 and 39-41"},
    {"error.gguf.unsupported_version",
     "unsupported GGUF version {version}; this reader knows versions 2 and 3"},
    {"error.gguf.value_type",
     "the {item_term} of {entry_term} {entry} is {type}, not a GGUF value type (0-12); the file is corrupt or from a newer GGUF version"},
    {"error.gguf.version_1",
     "GGUF version 1 (before September 2023) is not supported; re-convert the model with a current llama.cpp to get version 3"},
    {"error.gpus.instance",
     "the instance {id} has {gpus} GPUs; ask for at most that many"},
    {"error.group_size",
     "must be one of 32, 64, 128, 256, 512, 1024; got {got}"},
    {"error.group_size_gptq",
     "must be one of 32, 64, 128, 256, 512, 1024 or -1 (one group per column); got {got}"},
    {"error.hardware.kind",
     "must be one of gpu, cpu, instance, laptop; got \"{kind}\""},
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
    {"error.lora_targets.empty",
     "must name at least one module, or \"attention\" / \"all-linear\""},
    {"error.lora_targets.entry_not_a_string",
     "every entry must be a module name string; got {got}"},
    {"error.lora_targets.mla_only",
     "LoRA target \"{target}\" exists only in multi-head latent attention models (DeepSeek-V2/V3)"},
    {"error.lora_targets.needs_architecture",
     "LoRA adapter sizes need the model's architecture; give a preset id or {\"config\": {...}} instead of a bare parameter count"},
    {"error.lora_targets.not_a_list",
     "must be \"attention\", \"all-linear\" or a list of module names such as [\"q_proj\", \"v_proj\"]; got {got}"},
    {"error.lora_targets.not_gated",
     "LoRA target \"{target}\": this model's MLP is not gated (no gate projection); use up_proj and down_proj"},
    {"error.lora_targets.unknown",
     "unknown LoRA target \"{target}\"; use \"attention\", \"all-linear\" or module names from: {known}"},
    {"error.model.layers_and_hidden_size",
     "give both layers and hidden_size, or neither"},
    {"error.model.neither_config_nor_params",
     "must be a preset id, {\"config\": {...}} or {\"params\": N}; the object has neither \"config\" nor \"params\""},
    {"error.model.not_a_model",
     "must be a preset id (see `llmsizer models`), {\"config\": {...}} or {\"params\": N}; got {got}"},
    {"error.model.preset_unreadable",
     "preset {id} could not be read"},
    {"error.model.required",
     "is required: a preset id (see `llmsizer models`), {\"config\": {...}} or {\"params\": N}"},
    {"error.model.too_large",
     "the model is too large to size (over 1e17 parameters); check hidden_size, num_hidden_layers and intermediate_size"},
    {"error.model.unknown_preset",
     "unknown model preset \"{id}\"; list the presets with `llmsizer models`, or give {\"config\": {...}} or {\"params\": N}"},
    {"error.number",
     "must be a number from {min} to {max}; got {got}"},
    {"error.one_of",
     "must be one of {allowed}; got {got}"},
    {"error.request.empty",
     "the request is empty; send a JSON object such as {\"model\": \"qwen2.5-7b-instruct\"}"},
    {"error.request.not_json",
     "the request is not valid JSON ({detail})"},
    {"error.request.not_object",
     "the request must be a JSON object such as {\"model\": \"qwen2.5-7b-instruct\"}; got {type}"},
    {"error.request.unreadable",
     "the request could not be read: {detail}"},
    {"error.safetensors.data_past_end",
     "the safetensors header describes {data} bytes of tensor data after its {header} header bytes, but the file has only {file_size} bytes; the file is truncated (an incomplete download?)"},
    {"error.safetensors.duplicate_name",
     "the safetensors header names {name} twice"},
    {"error.safetensors.element_count_overflow",
     "the tensors' element counts add up to more than int64; the header is corrupt"},
    {"error.safetensors.field_twice",
     "tensor {tensor} has its {field} twice"},
    {"error.safetensors.field_type",
     "tensor {tensor} has {got_term} as its {field}; it must be {expected_term}"},
    {"error.safetensors.file_too_small",
     "the file has {file_size} bytes; a safetensors file starts with an 8-byte header length"},
    {"error.safetensors.fraction",
     "tensor {tensor} has {value} in its {field}; it must hold whole numbers"},
    {"error.safetensors.gap",
     "tensor {tensor} begins at data offset {begin} but tensor {previous} ends at {previous_end}: the tensors leave a gap; the header is corrupt"},
    {"error.safetensors.gap_at_start",
     "tensor {tensor} begins at data offset {begin} but the data section starts at 0: the tensors leave a gap; the header is corrupt"},
    {"error.safetensors.header_not_given",
     "the safetensors header takes the first {needed} bytes but only {given} were given; read {needed} bytes"},
    {"error.safetensors.header_not_object",
     "the safetensors header must be a JSON object; it is {got_term}"},
    {"error.safetensors.header_past_end",
     "the safetensors header length is {length} bytes, larger than the file ({file_size} bytes); the file is truncated or corrupt."},
    {"error.safetensors.header_too_long",
     "the safetensors header length is {length} bytes, over the 100,000,000-byte limit; the file is corrupt or not a safetensors file."},
    {"error.safetensors.hint.gguf",
     " This looks like a GGUF file."},
    {"error.safetensors.hint.json",
     " This looks like a JSON file (a model.safetensors.index.json or config.json?)."},
    {"error.safetensors.index.duplicate_name",
     "weight_map names {name} twice"},
    {"error.safetensors.index.no_weight_map",
     "the safetensors index has no weight_map object; is this a model.safetensors.index.json?"},
    {"error.safetensors.index.not_json",
     "the safetensors index is not valid JSON"},
    {"error.safetensors.index.not_json_near",
     "the safetensors index is not valid JSON (near byte {byte}): {detail}"},
    {"error.safetensors.index.not_object",
     "the safetensors index must be a JSON object; it is {got_term}"},
    {"error.safetensors.index.not_utf8",
     "the safetensors index is not valid UTF-8 (byte {byte})"},
    {"error.safetensors.index.section_not_object",
     "{section} must be an object; it is {got_term}"},
    {"error.safetensors.index.shard_not_string",
     "weight_map value for {name} is {got_term}; it must be a shard file name"},
    {"error.safetensors.index.too_large",
     "the safetensors index is {size} bytes, over the 100,000,000-byte limit"},
    {"error.safetensors.index.total_size",
     "metadata.total_size is {value}; it must be a non-negative whole number"},
    {"error.safetensors.index.total_size_beyond_int64",
     "metadata.total_size {value} is beyond int64"},
    {"error.safetensors.index.total_size_type",
     "metadata.total_size is {got_term}; it must be a non-negative whole number"},
    {"error.safetensors.length_not_given",
     "a safetensors file starts with an 8-byte header length; read at least the first 8 bytes"},
    {"error.safetensors.metadata_duplicate_key",
     "__metadata__ has the key {key} twice"},
    {"error.safetensors.metadata_not_object",
     "__metadata__ must be an object of strings; it is {got_term}"},
    {"error.safetensors.metadata_value_not_string",
     "__metadata__ value {key} is {got_term}; it must be a string"},
    {"error.safetensors.missing_field",
     "tensor {tensor} lacks {field}; each tensor needs dtype, shape and data_offsets"},
    {"error.safetensors.negative_number",
     "tensor {tensor} has a negative number {value} in its {field}"},
    {"error.safetensors.nested_array",
     "tensor {tensor} has a nested array in its {field}; it must hold whole numbers"},
    {"error.safetensors.not_a_whole_number",
     "tensor {tensor} has {got_term} in its {field}; it must hold whole numbers"},
    {"error.safetensors.not_json",
     "the safetensors header is not valid JSON"},
    {"error.safetensors.not_json_near",
     "the safetensors header is not valid JSON (near byte {byte} of the header): {detail}"},
    {"error.safetensors.not_utf8",
     "the safetensors header is not valid UTF-8 (byte {byte} of the header)."},
    {"error.safetensors.number_beyond_int64",
     "tensor {tensor} has {value} in its {field}, beyond int64"},
    {"error.safetensors.offsets_count",
     "tensor {tensor}'s data_offsets has {numbers} numbers; it must be [begin, end]"},
    {"error.safetensors.offsets_more_than_two",
     "tensor {tensor}'s data_offsets has more than two numbers"},
    {"error.safetensors.offsets_reversed",
     "tensor {tensor} has data_offsets [{begin}, {end}] that end before they begin"},
    {"error.safetensors.overlap",
     "tensor {tensor} begins at data offset {begin} but tensor {previous} ends at {previous_end}: their data overlap; the header is corrupt"},
    {"error.safetensors.partial_bytes",
     "tensor {tensor} has {elements} elements of {bits} bits, which is not a whole number of bytes"},
    {"error.safetensors.shape_overflow",
     "tensor {tensor} has a shape whose element count or byte size overflows int64"},
    {"error.safetensors.size_mismatch",
     "tensor {tensor} has data_offsets [{begin}, {end}] spanning {span} bytes, but {dtype} × [{shape}] needs {needed} bytes"},
    {"error.safetensors.tensor_not_object",
     "tensor {tensor} is {got_term}; each tensor must be an object with dtype, shape and data_offsets"},
    {"error.safetensors.too_many_dimensions",
     "tensor {tensor} has more than {max} dimensions"},
    {"error.safetensors.trailing_bytes",
     "the file has {extra} bytes after the tensor data that the safetensors header does not describe; the file is corrupt"},
    {"error.safetensors.unknown_dtype",
     "tensor {tensor} has the unknown dtype {dtype}; known: BOOL, U8, I8, F8_E5M2, F8_E4M3, F8_E8M0, F4, F6_E2M3, F6_E3M2, I16, U16, F16, BF16, I32, U32, F32, C64, F64, I64, U64"},
    {"error.string",
     "must be a string; got {got}"},
    {"error.task.recommend_is_inference",
     "recommend sizes inference; use estimate with a hardware id for training"},
    {"error.tokens.activations_too_large",
     "context × batch is too large to size for this model (activations over 1e18 bytes); lower input_tokens or batch"},
    {"error.tokens.context_too_long",
     "input_tokens + output_tokens must be at most {max}; got {got}"},
    {"error.tokens.kv_cache_too_large",
     "context × batch is too large to size for this model (KV cache over 1e18 bytes); lower input_tokens, output_tokens or batch"},
    {"error.training.checkpointing",
     "must be true (every layer's input kept, the rest recomputed), false, or \"selective\" (attention recomputed); got {got}"},
    {"error.training.freeze_needs_layers",
     "freeze training needs the model's layers; give a preset id or {\"config\": {...}}"},
    {"error.training.not_object",
     "must be an object such as {\"method\": \"lora\", \"seq_len\": 2048}"},
    {"error.training.offload_needs_zero",
     "optimizer offload is a ZeRO feature: set zero_stage to 1, 2 or 3"},
    {"error.training.param_offload_needs_zero3",
     "parameter offload needs zero_stage 3 (ZeRO-Infinity / FSDP CPU offload)"},
    {"error.training.zero_on_cpu",
     "ZeRO shards over GPUs; with gpus 0 (CPU training) use zero_stage 0"},
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
    {"explain.activations.llama_cpp.formula",
     "compute buffer: max(n_ubatch × vocab × 4 B logits, n_ctx × n_ubatch × heads × 4 B scores without flash attention, MLP)"},
    {"explain.activations.llama_cpp.values",
     "n_ubatch {ubatch}, vocab {vocab_count}, n_ctx {context_count}"},
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
    {"explain.overhead.cuda_context.formula",
     "CUDA context with lazy module loading (driver, kernels), per GPU"},
    {"explain.overhead.cuda_context.values",
     "426 MiB (measured, PyTorch 2.10 + CUDA 13)"},
    {"explain.overhead.cuda_context_short.formula",
     "CUDA context (lazy module loading)"},
    {"explain.overhead.cuda_context_short.values",
     "426 MiB"},
    {"explain.per_gpu",
     " (per GPU)"},
    {"explain.training.activations.checkpointed.formula",
     "tokens × (layers × h × a kept layer inputs) + one layer recomputed ({per_token_count} B/token) or {loss_term}, the larger"},
    {"explain.training.activations.host_offload",
     "; {host_bytes} of checkpointed layer inputs wait in host RAM (Unsloth offloaded gradient checkpointing)"},
    {"explain.training.activations.kept.formula",
     "tokens × layers × {per_token_count} B per token and layer (Korthikanti et al. 2022, adapted: GQA, gated MLP, flash attention) + {loss_term}"},
    {"explain.training.activations.kept_scores.formula",
     "tokens × layers × {per_token_count} B per token and layer (Korthikanti et al. 2022, adapted: GQA, gated MLP, 5·heads·s score bytes) + {loss_term}"},
    {"explain.training.activations.step_is_peak",
     "; the optimizer step is the peak ({step_bytes} vs backward {backward_bytes}), activations are freed by then"},
    {"explain.training.activations.values",
     "s {seq_len_count} × b {micro_batch_count}: kept {kept_bytes}, recompute {recompute_bytes}, loss {loss_bytes}, transient {transient_bytes}"},
    {"explain.training.adapters.base.values",
     "{params_count} params (rank {rank}, {kinds} target kinds) × {adapter_b}"},
    {"explain.training.adapters.formula",
     "Σ rank × (d_in + d_out) per targeted matrix × adapter bytes"},
    {"explain.training.adapters.fp32.values",
     "{params_count} params (rank {rank}, {kinds} target kinds) × 4 B (fp32, PEFT autocast_adapter_dtype)"},
    {"explain.training.adapters_dora.formula",
     "Σ rank × (d_in + d_out) per targeted matrix + d_out (DoRA magnitude) × adapter bytes"},
    {"explain.training.gradients.formula",
     "trainable params × gradient bytes"},
    {"explain.training.master.formula",
     "trainable 16-bit params × 4 B fp32 copy (mixed precision only)"},
    {"explain.training.master.values",
     "{master_bytes}"},
    {"explain.training.optimizer.formula",
     "trainable params × {state_b} ({optimizer})"},
    {"explain.training.optimizer.paged",
     "; paged: bitsandbytes moves pages to host RAM under memory pressure, so the peak can stay below this"},
    {"explain.training.overhead.allocator_cached",
     "; freed blocks the caching allocator keeps reserved {cached_bytes} (what nvidia-smi shows)"},
    {"explain.training.overhead.ddp",
     "; DDP: a full replica per GPU; gradient buckets double the gradients"},
    {"explain.training.overhead.formula",
     "CUDA context (426 MiB per GPU)"},
    {"explain.training.overhead.fsdp",
     "; FSDP FULL_SHARD: weights, gradients, optimizer ÷ {gpus} GPUs; 2 gathered blocks {gathered_bytes}"},
    {"explain.training.overhead.fsdp_no_sync",
     "; {micro_batches} micro-batches accumulated without sync (FSDP no_sync): unsharded gradients {gradients_bytes}"},
    {"explain.training.overhead.fsdp_root",
     "; root unit (embedding, lm_head) kept unsharded from forward to backward {root_bytes}"},
    {"explain.training.overhead.load_peak",
     "; loading the checkpoint peaks above training: {load_bytes}"},
    {"explain.training.overhead.overlap_comm",
     " × 2 (overlap_comm)"},
    {"explain.training.overhead.values",
     "{overhead_bytes}"},
    {"explain.training.overhead.zero12",
     "; ZeRO-{stage}: optimizer, master and fp32 gradients ÷ {gpus} GPUs; 16-bit weights and gradients on every GPU; gradient buckets {bucket_count} × {weight_size} B"},
    {"explain.training.overhead.zero12_buckets",
     " = {buckets_bytes} (DeepSpeed stage_1_and_2.py)"},
    {"explain.training.overhead.zero3",
     "; ZeRO-3: weights, gradients, optimizer and master ÷ {gpus} GPUs; gathered layer 4 × {largest_layer_count}; buckets h² × 2 B × 2 × 4.5 = {buckets_bytes}"},
    {"explain.training.states.adapters.values",
     "{params_count} adapter params"},
    {"explain.training.states.full.values",
     "{params_count} trainable params"},
    {"explain.training.states.plus_embedding_copies",
     " + {params_count} embedding-copy params"},
    {"explain.training.step_temporary.below_peak",
     "below the backward peak ({step_bytes} vs backward {backward_bytes}), so not added"},
    {"explain.training.step_temporary.foreach.formula",
     "torch AdamW foreach sqrt(v) temporary during the optimizer step: {params_count} trainable params × {state_b}"},
    {"explain.training.step_temporary.peak",
     "the optimizer step is the peak ({step_bytes} vs backward {backward_bytes})"},
    {"explain.training.step_temporary.zero.formula",
     "fp32 gradient partition during the optimizer step: {partition_bytes}"},
    {"explain.training.weights.formula",
     "params × bytes per param"},
    {"explain.training.weights.frozen.formula",
     "frozen base params × bytes per param"},
    {"explain.training.weights.full.values",
     "{params_count} params × {weight_size} B"},
    {"explain.training.weights.kbit_upcast",
     " (PEFT prepare_model_for_kbit_training casts embeddings, norms and lm_head to fp32)"},
    {"explain.training.weights.lora.values",
     "{params_count} frozen params × {base_b}"},
    {"explain.training.weights.qlora.values",
     "{quantized_count} params × {quantized_b} ({base_term}) + {rest_count} params × {base_b}"},
    {"explain.weights.minus_token_embd",
     " − token_embd {token_embd_bytes}"},
    {"explain.weights.minus_token_embd_tied",
     " − token_embd {token_embd_bytes} (kept on the GPU as the tied output)"},
    {"explain.weights.plain.formula",
     "parameters × bytes per parameter"},
    {"explain.weights.plain.values",
     "{params_count} params × {per_param_b} ({format})"},
    {"explain.weights.quantized.formula",
     "sum over tensors of their stored bytes (quantized blocks with scales and zeros; tensors kept at higher precision)"},
    {"explain.weights.quantized.values",
     "{params_count} params × {bits} bits effective ({format})"},
    {"explain.weights.token_embd_on_host.formula",
     "llama.cpp keeps token_embd (the input layer) in host memory"},
    {"explain.weights.token_embd_on_host.values",
     "token_embd {weights_count} weights"},
    {"feature.attention_output_gate",
     "gated attention: q_proj also emits a sigmoid output gate (q_proj twice as wide)"},
    {"feature.attention_sinks",
     "attention sinks: one learned sink logit per head and layer ({heads} parameters a layer)"},
    {"feature.embedding_scaled",
     "embeddings scaled by √hidden_size (no extra memory)"},
    {"feature.explicit_head_dim",
     "head_dim {head_dim} set explicitly (hidden_size / heads would give {implied_head_dim}): {heads} × {head_dim} = {query_width} query width vs hidden {hidden}"},
    {"feature.extra_params",
     "encoders outside the text model"},
    {"feature.extra_params_projector",
     " and multimodal projector"},
    {"feature.extra_params_rest",
     ": {params_count} parameters, held in memory but not in the per-token decoder compute"},
    {"feature.extra_params_vision",
     "SigLIP vision tower ({layers} layers)"},
    {"feature.gqa",
     "GQA {heads}:{kv_heads} — KV cache {smaller_ratio} smaller than MHA"},
    {"feature.hybrid",
     "hybrid: {recurrent} of {layers} layers are {mixer_term} with a fixed {state_count}-value state per sequence ({state_bytes} at fp32) instead of a KV cache; {attention} layers keep a KV cache"},
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
    {"feature.mqa",
     "MQA: 1 KV head shared by {heads} query heads — KV cache {heads}× smaller than MHA"},
    {"feature.mtp",
     "MTP: {layers} multi-token-prediction layers ({params_count} parameters) ship in the checkpoint but are not counted: loaded only for speculative decoding"},
    {"feature.mtp_one",
     "MTP: {layers} multi-token-prediction layer ({params_count} parameters) ships in the checkpoint but is not counted: loaded only for speculative decoding"},
    {"feature.norms_per_layer",
     "{norms} norms per layer (before and after attention and MLP)"},
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
    {"feature.tied_embeddings",
     "tied embeddings: the {vocab_count} × {hidden_count} table serves as input and output ({params_count} parameters stored once)"},
    {"feature.untied_embeddings",
     "untied embeddings: separate input and output tables of {vocab_count} × {hidden_count} ({params_count} parameters each)"},
    {"fit.training.never_fits",
     "Does not fit: even 1 token at micro-batch {micro_batch_count} runs out of memory"},
    {"fit.training.out_of_memory",
     "Does not fit at {seq_len_count} tokens × micro-batch {micro_batch_count}; the longest sequence that fits at this micro-batch is {max_context_count} tokens"},
    {"hardware.unsupported.neuron",
     "not a GPU: needs the AWS Neuron SDK"},
    {"hardware.unsupported.no_speed_figures",
     "its accelerator ({accelerator}) has no speed figures in the catalog"},
    {"hardware.unsupported.ram_unknown",
     "maximum RAM not known"},
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
    {"term.bound.memory_bandwidth",
     "memory bandwidth"},
    {"term.bound.memory_bandwidth_cpu",
     "memory bandwidth (CPU)"},
    {"term.bound.synchronizing_kernels",
     "synchronizing kernels"},
    {"term.gguf.entry.metadata_entry",
     "metadata entry"},
    {"term.gguf.entry.metadata_key",
     "metadata key"},
    {"term.gguf.entry.tensor",
     "tensor"},
    {"term.gguf.item.array_element_type",
     "array element type"},
    {"term.gguf.item.array_length",
     "array length"},
    {"term.gguf.item.array_string",
     "array string"},
    {"term.gguf.item.array_values",
     "array values"},
    {"term.gguf.item.data_offset",
     "data offset"},
    {"term.gguf.item.dimension_count",
     "dimension count"},
    {"term.gguf.item.dimensions",
     "dimensions"},
    {"term.gguf.item.key",
     "key"},
    {"term.gguf.item.magic",
     "magic"},
    {"term.gguf.item.metadata_count",
     "metadata count"},
    {"term.gguf.item.name",
     "name"},
    {"term.gguf.item.string_value",
     "string value"},
    {"term.gguf.item.tensor_count",
     "tensor count"},
    {"term.gguf.item.type",
     "type"},
    {"term.gguf.item.value",
     "value"},
    {"term.gguf.item.value_type",
     "value type"},
    {"term.gguf.item.version",
     "version"},
    {"term.gguf.removed_type.iq4_nl_4_4",
     "IQ4_NL_4_4/4_8/8_8, removed from GGUF files; use IQ4_NL"},
    {"term.gguf.removed_type.q4_0_4_4",
     "Q4_0_4_4/Q4_0_4_8/Q4_0_8_8, removed from GGUF files; use Q4_0"},
    {"term.gguf.removed_type.q4_2",
     "Q4_2/Q4_3, removed from ggml in 2023"},
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
    {"term.loss.16_bit",
     "loss buffers (6 B × vocab per token)"},
    {"term.loss.chunked",
     "chunked loss (one chunk of fp32 logits)"},
    {"term.loss.cut_cross_entropy",
     "Cut Cross-Entropy (no logits stored: an fp32 log-sum-exp and the hidden-state gradient per token)"},
    {"term.loss.fp32",
     "loss buffers (12 B × vocab per token)"},
    {"term.mixer.gated_delta_net",
     "linear attention (gated delta net)"},
    {"term.mixer.mamba",
     "Mamba SSM"},
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
    {"term.safetensors.expected.data_offsets",
     "[begin, end]"},
    {"term.safetensors.expected.dtype",
     "a string such as \"BF16\""},
    {"term.safetensors.expected.shape",
     "an array of whole numbers"},
    {"throughput.bandwidth_unknown",
     "the hardware's memory bandwidth is not known"},
    {"warning.budget.hardware_wins",
     "budget_bytes: ignored, the hardware named decides what fits"},
    {"warning.config.gemma3_defaults",
     "config: Gemma 3 fields absent from the config take transformers' Gemma3TextConfig defaults: {fields}"},
    {"warning.config.ignored_fields",
     "config: {fields} field(s) not used for sizing were ignored: {names}"},
    {"warning.config.vision_not_counted",
     "config: the vision tower (vision_config model_type \"{model_type}\") is not counted; only the text model is sized"},
    {"warning.disk.bnb_quantizes_at_load",
     "disk: bitsandbytes usually quantizes at load time (load_in_4bit/load_in_8bit) from the 16-bit checkpoint, which then is the download ({checkpoint_bytes}); disk_bytes is a pre-quantized bitsandbytes checkpoint"},
    {"warning.disk.gguf_mmap",
     "disk: llama.cpp maps the GGUF file (mmap), so the file's pages also sit in the OS page cache (host RAM) while it runs, unless --no-mmap; the file also holds the tokenizer and metadata"},
    {"warning.engine.vllm_reserves_gpu",
     "engine vllm: vLLM reserves gpu_memory_utilization (default 0.9) of the GPU and fills the rest of it with KV-cache blocks, so nvidia-smi shows ~90% of the card whatever the request; the figure here is what the request needs"},
    {"warning.file.header_missing_field",
     "the header does not give {field}, so the KV cache and activations assume multi-head attention over the layers and width it does give; add the model's config.json for the exact architecture"},
    {"warning.file.index_only",
     "an index lists the shards and their total bytes, not the architecture: add the model's config.json, then the request model is {\"config\": ..., \"weight_bytes\": {total_size}}"},
    {"warning.file.no_family",
     "the header does not name a model family, so family layer patterns (sliding windows, biases) are not applied"},
    {"warning.file.packed_quantization",
     "the file holds packed quantized weights (GPTQ/AWQ-style qweight): the parameter count comes from the architecture, the bytes from the file"},
    {"warning.gpus.cpu_inference",
     "gpus 0: CPU inference, everything is in RAM (host_bytes); the runtime's own memory (process, libraries) is not included"},
    {"warning.gpus.heads_do_not_divide",
     "gpus: {heads} attention heads do not divide over {gpus} GPUs; engines such as vLLM refuse this tensor-parallel size"},
    {"warning.group_size.ignored",
     "group_size: ignored, weights \"{format}\" have no group size to choose (GPTQ, AWQ and MLX formats do)"},
    {"warning.kv_cache.quantized_v_needs_flash_attention",
     "kv_cache: llama.cpp needs flash attention (-fa) for a quantized V cache"},
    {"warning.memory.tied_embedding_held_twice",
     "memory: the tied embedding is stored once on disk but held twice by llama.cpp: token_embd in host memory and the output copy on the GPU"},
    {"warning.model.params_only",
     "model: only a parameter count was given, so the KV cache and activations are unknown and counted as 0; give layers and hidden_size, or a config"},
    {"warning.model.params_with_shape",
     "model: KV cache and activations use the given layers and hidden_size with multi-head attention and a {mlp_width}-wide MLP; the parameter count is taken as given"},
    {"warning.request.unknown_field",
     "request: unknown field \"{field}\" ignored"},
    {"warning.training.cpu",
     "training on the CPU: every part is in host RAM"},
    {"warning.training.no_packing",
     "without packing, sequences are padded to the longest of the micro-batch: memory is sized at seq_len, and time counts padding as work"},
    {"warning.training.paged_optimizer",
     "paged optimizer: its states can be paged out to host RAM when the GPU runs short, so training may fit below this estimate (slower)"},
    {"warning.training.unknown_field",
     "training: unknown field \"{field}\" ignored"},
    {"warning.weights.awq_fused_cache",
     "weights {format}: with fused modules (AwqConfig do_fuse=True) AutoAWQ preallocates the KV cache for fuse_max_seq_len × batch ({cache_bytes} at 2048 tokens), whatever the request's context"},
    {"warning.weights.gguf_in_other_engine",
     "weights {format}: a GGUF file type runs in llama.cpp (engine llama.cpp); {engine} loads GGUF by dequantizing or with its own kernels, so its memory differs"},
    {"warning.weights.gptq_exllamav2_scratch",
     "weights {format}: with the ExLlamaV2 kernels AutoGPTQ allocates a scratch buffer per GPU for the largest layer (dequantized weight + 2048 × 8 token outputs): {scratch_bytes} more, not counted here"},
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
  const auto* end = std::end(kTemplates);
  const auto* it = std::lower_bound(std::begin(kTemplates), end, id, [](const MessageTemplate& t, std::string_view key) { return t.id < key; });
  return it != end && it->id == id ? it : nullptr;
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
  char buffer[32];
  if (v >= 1e12) std::snprintf(buffer, sizeof buffer, "%.3gT", v / 1e12);
  else if (v >= 1e9) std::snprintf(buffer, sizeof buffer, "%.3gB", v / 1e9);
  else if (v >= 1e6) std::snprintf(buffer, sizeof buffer, "%.3gM", v / 1e6);
  else if (v >= 1e3) std::snprintf(buffer, sizeof buffer, "%.3gK", v / 1e3);
  else std::snprintf(buffer, sizeof buffer, "%lld", static_cast<long long>(n));
  return buffer;
}

/// 1153433.6 bytes → "1.15 MB" (decimal units, as the rest of the display).
std::string short_bytes(std::int64_t bytes) {
  char buffer[32];
  const double v = static_cast<double>(bytes);
  if (v >= 1e9) std::snprintf(buffer, sizeof buffer, "%.3g GB", v / 1e9);
  else if (v >= 1e6) std::snprintf(buffer, sizeof buffer, "%.3g MB", v / 1e6);
  else if (v >= 1e3) std::snprintf(buffer, sizeof buffer, "%.3g kB", v / 1e3);
  else std::snprintf(buffer, sizeof buffer, "%lld B", static_cast<long long>(bytes));
  return buffer;
}

std::string format_arg(const MessageArg& a) {
  char buffer[64];
  switch (a.kind) {
    case MessageArg::Kind::integer: return std::to_string(a.integer);
    case MessageArg::Kind::decimal:
      std::snprintf(buffer, sizeof buffer, "%.*f", a.digits, a.real);
      return buffer;
    case MessageArg::Kind::significant: return fmt::count(a.real);
    case MessageArg::Kind::count: return fmt::count(a.integer);
    case MessageArg::Kind::grouped: return grouped(a.integer);
    case MessageArg::Kind::short_count: return short_count(a.integer);
    case MessageArg::Kind::bytes: return fmt::gb(a.integer);
    case MessageArg::Kind::bytes_1:
      std::snprintf(buffer, sizeof buffer, "%.1f GB", static_cast<double>(a.integer) / 1e9);
      return buffer;
    case MessageArg::Kind::bytes_short: return short_bytes(a.integer);
    case MessageArg::Kind::memory_size:
      // A memory configuration as the vendor names it ("64 GB" for 64 GiB of DRAM).
      std::snprintf(buffer, sizeof buffer, "%.0f GB", static_cast<double>(a.integer) / static_cast<double>(1LL << 30));
      return buffer;
    case MessageArg::Kind::bytes_each: return fmt::bytes_per(a.real);
    case MessageArg::Kind::ratio:
      if (a.denominator != 0 && a.integer % a.denominator == 0) std::snprintf(buffer, sizeof buffer, "%lld×", static_cast<long long>(a.integer / a.denominator));
      else std::snprintf(buffer, sizeof buffer, "%.3g×", a.real);
      return buffer;
    case MessageArg::Kind::usd:
      std::snprintf(buffer, sizeof buffer, "$%.*f", a.digits, a.real);
      return buffer;
    case MessageArg::Kind::text: return a.text;
    case MessageArg::Kind::term: return render_en(Message("term." + a.text));
  }
  return std::string();
}

bool is_name_char(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

}  // namespace

const MessageTemplate* message_templates_begin() { return std::begin(kTemplates); }
const MessageTemplate* message_templates_end() { return std::end(kTemplates); }

std::vector<MessageTemplate> all_message_templates() {
  std::vector<MessageTemplate> out(std::begin(kTemplates), std::end(kTemplates));
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
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '{') {
      std::size_t end = i + 1;
      while (end < text.size() && is_name_char(text[end])) ++end;
      if (end < text.size() && text[end] == '}' && end > i + 1) {
        const std::string_view name = text.substr(i + 1, end - i - 1);
        const auto arg = std::find_if(message.args.begin(), message.args.end(), [&](const MessageArg& a) { return a.name == name; });
        if (arg == message.args.end()) throw std::logic_error("message \"" + message.id + "\" has no argument " + std::string(name));
        out += format_arg(*arg);
        i = end;
        continue;
      }
    }
    out += text[i];
  }
  for (const auto& part : message.parts) out += render_en(part);
  return out;
}

nlohmann::ordered_json message_json(const Message& message) {
  nlohmann::ordered_json j;
  j["id"] = message.id;
  if (!message.args.empty()) {
    nlohmann::ordered_json args = nlohmann::ordered_json::object();
    for (const auto& a : message.args) {
      switch (a.kind) {
        case MessageArg::Kind::decimal:
        case MessageArg::Kind::significant:
        case MessageArg::Kind::bytes_each:
        case MessageArg::Kind::usd:
        case MessageArg::Kind::ratio: args[a.name] = a.real; break;
        case MessageArg::Kind::text:
        case MessageArg::Kind::term: args[a.name] = a.text; break;
        default: args[a.name] = a.integer; break;
      }
    }
    j["args"] = std::move(args);
  }
  if (!message.parts.empty()) {
    j["parts"] = nlohmann::ordered_json::array();
    for (const auto& part : message.parts) j["parts"].push_back(message_json(part));
  }
  return j;
}

}  // namespace llmsizer::edge
