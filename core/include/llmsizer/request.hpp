// SPDX-License-Identifier: MIT
#pragma once
/// The typed request: every field of a JSON request (contract: Request) read, checked and with its
/// default resolved, once, by the edge's parse_request (core/src/edge/request/parse_request.cpp). Everything
/// past it — the estimate, the fit, speed, cost, the recommendation — reads this struct only.
///
/// To add a request field: a member here (with its default), one line in parse_request where it is
/// read (that is also where its error is raised), and its use in answer.cpp.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "llmsizer/buy_or_rent.hpp"
#include "llmsizer/co_resident.hpp"
#include "llmsizer/cost.hpp"
#include "llmsizer/hardware.hpp"
#include "llmsizer/memory.hpp"
#include "llmsizer/model.hpp"
#include "llmsizer/precision.hpp"
#include "llmsizer/recommend.hpp"
#include "llmsizer/serving.hpp"
#include "llmsizer/speed_calibration.hpp"
#include "llmsizer/speculative.hpp"
#include "llmsizer/training.hpp"

namespace llmsizer {

enum class Task { inference, training, serve };
const char* task_id(Task task);

/// Largest context and batch the core sizes (contract: "a whole number from 1 to 10000000").
constexpr std::int64_t kMaxTokens = 10'000'000;
constexpr std::int64_t kMaxBatch = 1'000'000;
/// Request `max_options` at most (any catalog is smaller).
constexpr std::int64_t kMaxListedOptions = 1'000'000;
constexpr std::int64_t kMaxGpus = 4096;

struct Request {
  Task task = Task::inference;
  ModelSpec model;

  /// The weights' storage format: a catalog entry, or `file_format` (an imported file's exact bytes).
  const WeightFormat* weights = nullptr;
  /// A model imported from a weights file with no `weights` in the request: its stored bytes as a
  /// one-block format (id "file"). Shared so that copies of the request keep `weights` valid.
  std::shared_ptr<const WeightFormat> file_format;
  int group_size = 0;  ///< GPTQ/AWQ/MLX group size; 0: the format's default; -1: GPTQ per column
  const KvCacheFormat* kv_cache = nullptr;
  Engine engine = Engine::generic;
  int engine_version = 0;               ///< major × 100 + minor (vLLM 0.6 → 6), llama.cpp: the build number; 0: current
  std::string engine_version_text;      ///< as the request wrote it (echoed in the settings)
  std::int64_t input_tokens = 1024;
  std::int64_t output_tokens = 1024;    ///< 0 for training
  std::int64_t batch = 1;
  int gpus = 1;                         ///< 0: CPU only
  bool flash_attention = true;
  /// Engine llama.cpp: the request's llama-server fields (ubatch, n_batch, parallel, ...); the
  /// CPU family also for Ollama's llama-server.
  LlamaCppOptions llama_cpp;
  /// Engine ollama: the request's `ollama` object (its flash attention resolved: -1 auto when neither
  /// `ollama.flash_attention` nor `flash_attention` is given).
  OllamaOptions ollama;

  /// `hardware`: a catalog entry, an inline object or a probe file's device; none when absent.
  std::optional<HardwareSpec> hardware;
  /// The CPU that "CPU or GPU" compares with (request `cpu`, else the catalog's reference desktop
  /// CPU); set when the hardware is a GPU with a known bandwidth.
  std::optional<HardwareSpec> cpu;
  OwnershipCosts costs;                 ///< request `cost`
  UsagePattern usage;                   ///< request `usage` (recommend: the buy, rent or use table)
  Goal goal = Goal::best_value;         ///< request `goal` (recommend)
  bool enforce_eager = false;           ///< vLLM --enforce-eager (speed only)
  /// `english_text`: false leaves each message's English text out of the answer (its `<key>_data`,
  /// which a page renders in its reader's language, stays). The page asks so for its ranking: the
  /// whole-catalog recommendation is smaller and written in about half the time.
  bool english_text = true;
  /// False for the rows page_answer answers beside its estimate (a chart point, a weight format's
  /// row), read for their bytes and verdict only: no longest-context or largest-batch search and no
  /// fixes, each of which estimates the request again many times, and an answer of the members a
  /// row is read for (api.hpp: page_answer). Not a request field.
  bool search_limits = true;
  /// The speed model's constants read from published tables: the cited values, replaced only by
  /// api.hpp's estimate with a calibration (`llmsizer validate` estimating a source's rows without
  /// the values read from them), for the call. Not a request field.
  const SpeedCalibration* speed_calibration = &kCitedSpeedCalibration;
  /// `max_options` (recommend): the answer lists the best this many fitting options and says how many
  /// fit in all (`options_total`); the whole catalog is still ranked. The page shows ten rows until
  /// its reader asks for all, and asks for what it shows: over the catalog the answer is written in
  /// a fraction of the time, and ten-fold catalogs stay within a frame or two. Absent:
  /// SIZE_MAX, every option.
  std::size_t max_options = SIZE_MAX;
  /// `budget_bytes`: a memory budget to fit in when no hardware is named (the page's "my budget").
  std::optional<std::int64_t> budget_bytes;

  TrainingSettings training;            ///< task training: the `training` object, defaults resolved
  /// `draft` (inference): a draft model for speculative decoding, loaded beside the model.
  std::optional<DraftSettings> draft;
  /// `also_loaded` (inference): other models kept loaded beside the model, in load order.
  std::vector<AlsoLoadedSettings> also_loaded;
  /// Task serve: the engine, layout, workload, latency target and engine settings; `engine` above
  /// is then the engine whose memory rules size it (serve_engine.hpp memory_engine).
  std::optional<ServeSettings> serve;

  /// Warnings raised while reading (unknown fields, a group size that does not apply, what an
  /// imported config leaves out), in the order found.
  std::vector<Message> warnings;

  /// The inference settings of this request (the memory, speed and fit functions' input).
  InferenceSettings inference() const;
};

}  // namespace llmsizer
