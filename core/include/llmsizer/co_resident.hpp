// SPDX-License-Identifier: MIT
#pragma once
/// Several models kept loaded side by side on one machine (request `also_loaded`): each model's
/// memory from the memory estimator under the engine's rules, the engine's rule for keeping several
/// (Ollama's scheduler, vLLM instances splitting the GPU, one llama-server per model), the set's
/// verdict, and which model is evicted, offloaded or not started first. Pure functions over plain
/// structs.
#include <cstdint>
#include <string>
#include <vector>

#include "llmsizer/hardware.hpp"
#include "llmsizer/memory.hpp"
#include "llmsizer/message.hpp"
#include "llmsizer/model.hpp"
#include "llmsizer/precision.hpp"
#include "llmsizer/verdict.hpp"

namespace llmsizer {

/// Most models a request may keep loaded beside its own.
constexpr int kMaxAlsoLoaded = 8;
/** Models Ollama keeps loaded per GPU when OLLAMA_MAX_LOADED_MODELS is unset: 3 × the GPUs (3 on
 *  the CPU, which Ollama lists as one device). ollama/ollama server/sched.go: `defaultModelsPerGPU
 *  = 3`, and processPending sets `envconfig.MaxRunners = defaultModelsPerGPU * len(gpus)`. */
constexpr int kOllamaModelsPerGpu = 3;
/** The GPU share vLLM instances split when none is given: vLLM's default gpu_memory_utilization 0.9
 *  (vllm/engine/arg_utils.py EngineArgs), shared evenly by the instances that give no share. */
constexpr double kVllmSharedUtilization = 0.9;

/// One model of `also_loaded` as the request describes it.
struct AlsoLoadedSettings {
  ModelSpec model;
  const WeightFormat* weights = nullptr;  ///< required
  int group_size = 0;
  const KvCacheFormat* kv_cache = nullptr;  ///< nullptr: the request's
  std::int64_t context = 0;               ///< tokens (-c, num_ctx, --max-model-len); 0: the request's input + output
  int n_gpu_layers = -1;                  ///< llama.cpp -ngl, Ollama num_gpu (-1: all that fit)
  double gpu_memory_utilization = 0;      ///< vLLM/SGLang: this instance's share; 0: an even share of what is left
};

/// One model of the set as loaded.
struct CoResidentModel {
  std::string model_id;
  std::string weights_id;
  std::int64_t context = 0;
  std::int64_t device_bytes = 0;  ///< per GPU as nvidia-smi shows it (vLLM/SGLang: its whole share)
  std::int64_t host_bytes = 0;    ///< in RAM
  std::int64_t needed_bytes = 0;  ///< per GPU, what its estimate needs (vLLM/SGLang: within its share)
  double gpu_memory_utilization = 0;  ///< vLLM/SGLang: the share it is started with
  int n_gpu_layers = -1;          ///< llama.cpp -ngl, Ollama num_gpu (-1: all)
  bool resident = true;           ///< false: Ollama unloads it, or its process does not start
};

/** An also-loaded model's memory beside a request with `main` settings: the same engine and its
 *  settings (batch, sequences, flags), with the model's own weights, context, cache type and
 *  layers on the GPU. Each model is its own process or runner, so its estimate includes its own
 *  CUDA context (none in unified memory, where Metal has none: memory.hpp without_cuda_context). */
CoResidentModel co_resident_memory(const AlsoLoadedSettings& other, const InferenceSettings& main, bool unified_memory = false);

/// The set's memory against the device the request's fit used.
struct CoResidentSet {
  std::vector<CoResidentModel> models;  ///< the request's model first, then `also_loaded` in order
  bool placed = false;                  ///< false without a device: the models' memory only
  int max_loaded = 0;                   ///< Ollama: models kept loaded at most; else 0
  std::int64_t required_bytes = 0;      ///< per GPU (or RAM on the CPU): the resident models together
  std::int64_t usable_bytes = 0;
  std::int64_t headroom_bytes = 0;
  std::int64_t margin_bytes = 0;
  Verdict verdict = Verdict::no_fit;
  int first_out = -1;                   ///< the model evicted, offloaded or not started first (-1: none)
  int loading = -1;                     ///< Ollama: the model whose load evicted `first_out`
  Message summary;                      ///< the verdict in one sentence, naming first_out and why
  std::vector<Message> explain;         ///< the engine's rule, then one line per model
  std::string command_line;             ///< the commands that start the set (co_resident_command_line)
};

/** The set on the device of `main_fit` (`cpu`: everything in RAM; `host_usable_bytes`: RAM for an
 *  offload, 0 when unknown). Per engine:
 *  - Ollama: one runner (llama-server) per model with its own context; models load in the order
 *    given; a model is loaded when fewer than OLLAMA_MAX_LOADED_MODELS are and it fits the free
 *    memory beside those loaded, else Ollama unloads one first (server/sched.go processPending:
 *    "max runners achieved, unloading one to make room", and when pickBestFitGPUs finds no room,
 *    findRunnerToUnload). findRunnerToUnload sorts the loaded runners by keep_alive, shortest first,
 *    and takes the first idle one (else the first). With every model at the same keep_alive, the
 *    request's own model is the one in use, and the earliest listed idle model is taken here. A
 *    model that does not fit alone loads with part of its layers in RAM.
 *  - vLLM and SGLang: one instance per model, each reserving its share of the GPU's memory
 *    (--gpu-memory-utilization, --mem-fraction-static) and needing its weights, activations and
 *    cache within it: vLLM's worker refuses to start when the free memory is below
 *    total × gpu_memory_utilization (vllm/v1/worker/gpu_worker.py Worker.init_device: "Free memory on
 *    device ... is less than desired GPU memory utilization"), so the shares add up to at most 1.
 *  - llama.cpp: one llama-server per model, each with its own CUDA context, weights, KV cache and
 *    compute buffer; the memory adds up, and when it does not fit, the last started model is the
 *    one to keep layers in RAM (lower its -ngl).
 *  - transformers and the others: one process per model; the memory adds up, and the last started
 *    runs out of memory. */
CoResidentSet place_co_resident(std::vector<CoResidentModel> models, Engine engine, int gpus, const FitResult& main_fit,
                                std::int64_t host_usable_bytes);

/** The commands that keep the set loaded, one line per process: Ollama's server with room for every
 *  model and no unload timer (OLLAMA_MAX_LOADED_MODELS, OLLAMA_KEEP_ALIVE=-1: docs/faq.md) and a
 *  `ollama run` per model; one `vllm serve` per model with its --gpu-memory-utilization and
 *  --max-model-len on its own port (SGLang: `python -m sglang.launch_server` with --mem-fraction-static);
 *  one `llama-server` per model with its -c and -ngl on its own port. Model ids stand for the paths
 *  or tags. Empty for the other engines. */
std::string co_resident_command_line(Engine engine, const CoResidentSet& set);

}  // namespace llmsizer
