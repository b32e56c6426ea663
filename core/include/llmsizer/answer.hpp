// SPDX-License-Identifier: MIT
#pragma once
/// The answer to a typed request: memory by part with its explanation, the weights as stored and
/// the download, training's states and time, and on a device the fit, speed, CPU-or-GPU and cost.
/// `answer` is pure: the same request and catalog give the same answer, natively and in WASM. The
/// edge writes it as JSON (core/src/edge/answer/to_json.cpp).
///
/// To add a response field: a member here, where answer.cpp computes it, and one line in to_json.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "llmsizer/catalog.hpp"
#include "llmsizer/co_resident.hpp"
#include "llmsizer/cost.hpp"
#include "llmsizer/fixes.hpp"
#include "llmsizer/hardware.hpp"
#include "llmsizer/memory.hpp"
#include "llmsizer/quantization.hpp"
#include "llmsizer/recommend.hpp"
#include "llmsizer/request.hpp"
#include "llmsizer/serving.hpp"
#include "llmsizer/speculative.hpp"
#include "llmsizer/throughput.hpp"
#include "llmsizer/training.hpp"

namespace llmsizer {

/// The model as an answer describes it: exact counts and the features that change memory or speed.
struct ModelSummary {
  ParamCounts params;
  std::vector<Message> features;
};
ModelSummary summarize_model(const ModelSpec& model);

/// The weights as stored in the request's format: bytes by tensor class and by storage type.
struct WeightsSummary {
  double bits_per_weight = 0;
  std::array<std::int64_t, 6> bytes_by_class{};  ///< indexed by TensorClass
  struct Type {
    std::string type;
    std::int64_t tensors = 0;
    std::int64_t bytes = 0;
  };
  std::vector<Type> types;  ///< by type name, ascending
};

/// An inference request placed on a device.
struct InferenceOnHardware {
  HardwareSpec hardware;           ///< as used: a GPU asked to run with gpus 0 has its devices set to 0
  FitResult fit;
  Throughput throughput;
  std::optional<CpuVsGpu> cpu_vs_gpu;
  std::string cpu_id;              ///< the CPU compared with
  OptionCost cost;
  Message summary;                 ///< the verdict in one sentence (offload: with its speed)
  std::vector<Fix> fixes;          ///< when not comfortable: what makes it fit, cheapest first
  std::vector<Message> assumptions;  ///< the memory rules applied
};

/// What a fit says beside its numbers: the verdict, its fixes and the rules it applied.
struct FitVerdict {
  Verdict verdict = Verdict::no_fit;
  std::int64_t margin_bytes = 0;
  Message summary;
  std::vector<Fix> fixes;
  std::vector<Message> assumptions;
};

/// A training request's memory against one device of the hardware.
struct TrainingOnHardware {
  HardwareSpec hardware;
  bool fits = false;
  std::int64_t required_bytes = 0;
  std::int64_t usable_bytes = 0;
  std::int64_t headroom_bytes = 0;
  std::int64_t memory_option_bytes = 0;  ///< unified memory: the configuration used
  FitVerdict verdict;
};

/// The request's memory against a budget the person gave (request `budget_bytes`): the device peak,
/// or host memory when nothing runs on a device, against the budget as given.
struct BudgetFit {
  bool fits = false;
  std::int64_t required_bytes = 0;
  std::int64_t usable_bytes = 0;
  std::int64_t headroom_bytes = 0;
  FitVerdict verdict;
};

/// A draft for speculative decoding (request `draft`): its memory, and on a device the set's fit and
/// the speed it gives.
struct DraftAnswer {
  DraftMemory memory;
  std::optional<DraftFit> fit;     ///< with hardware: the model and its draft together
  Message summary;                 ///< the set's verdict in one sentence (with fit)
  std::optional<DraftSpeed> speed; ///< with hardware of known bandwidth
  std::string command_line;        ///< the pair's launch command (speculative.hpp); empty: none
};

struct Answer {
  ModelSummary model;
  MemoryEstimate memory;              ///< the request's estimate (training: its memory)
  WeightsSummary weights;
  DiskSize disk;
  std::optional<TrainingEstimate> training;
  std::optional<InferenceOnHardware> inference_hardware;
  std::optional<TrainingOnHardware> training_hardware;
  std::optional<BudgetFit> budget_fit;
  /// Training on a device or within a budget: whether it fits, the longest sequence at this
  /// micro-batch and the largest micro-batch at this sequence length that fit (0: not even 1).
  std::optional<TrainingFit> training_fit;
  std::vector<Message> warnings;  ///< the request's, the estimate's, then the download's
  std::optional<DraftAnswer> draft;  ///< request `draft` (inference)
  /// Request `also_loaded` (inference): every model's memory, and on a device the set's fit.
  std::optional<CoResidentSet> co_resident;
  std::optional<ServingAnswer> serving;  ///< task serve on a device
};

/// The answer to `request`. Lays the weights out once and estimates the request's memory once; the
/// fit on a device reuses both (its searches for the longest context and largest batch reuse the layout).
Answer answer(const Request& request, const Catalog& catalog);
/** `answer` for an inference request (task inference) without the `also_loaded` set, which `answer`
 *  adds: what a program that answers one model's inference alone calls, so that its linker leaves
 *  serving's, training's and the set's code out (api.hpp: estimate_inference). */
Answer answer_inference(const Request& request, const Catalog& catalog);

/** Task serve: every GPU to buy and instance to rent that serves the workload within its target,
 *  each on the smallest tensor-parallel group that holds a request, with the replicas it needs,
 *  cheapest a month first; and the near misses. */
ServeRecommendation recommend_serving(const Request& request, const Catalog& catalog);

/// Every catalog option for an inference request, ranked by `request.goal` (contract: Recommendation).
Recommendation recommend(const Request& request, const Catalog& catalog);

/// The verdict sentence of a fit: comfortable or tight with the headroom and margin, offload with
/// the split and (when known) its speed, or how far short.
Message fit_summary(Verdict verdict, std::int64_t headroom_bytes, std::int64_t margin_bytes, const OffloadSplit* offload, int layers,
                    double tokens_per_s);

}  // namespace llmsizer
