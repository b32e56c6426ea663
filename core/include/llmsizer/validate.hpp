// SPDX-License-Identifier: MIT
#pragma once
/// Accuracy against published measurements: every row of data/validation/*.json (compiled in) is
/// mapped to an estimate request and compared with the quantity it measured — allocator peak
/// (torch.cuda.max_memory_allocated) vs what nvidia-smi shows, per GPU vs summed over GPUs, GB vs
/// GiB vs MiB as the source really meant. Each kind (inference, training, file_size, speed,
/// serving) has its own row function in validate.cpp; serving_external (other publishers' serving
/// pages) is mapped by serving's function and reported apart.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "llmsizer/embedded_data.hpp"
#include "llmsizer/speed_calibration.hpp"

namespace llmsizer {

/// One measured row against its estimate.
struct ValidationRow {
  std::string id;               ///< the row's id in data/validation/<kind>.json
  std::string kind;             ///< "inference", "training", "file_size", "speed", "serving", "serving_external"
  std::string source;           ///< where the number was published
  std::string source_id;        ///< serving: the id of the row's entry in the file's `sources` (one publisher's document)
  std::string metric;           ///< serving: the group of the compared figure ("output_throughput", "ttft", "tpot_itl", "e2e", ...)
  std::string request;          ///< the estimate request the row maps to (JSON), empty when excluded
  std::string quantity;         ///< what is compared, e.g. "tensor_peak_bytes (torch.cuda.max_memory_allocated)"
  std::string unit;             ///< unit of measured/estimated: "GiB", "GB", "tokens/s", ...
  double measured = 0.0;        ///< as published, in `unit`
  double estimated = 0.0;       ///< the estimate, in `unit`
  double error = 0.0;           ///< (estimated − measured) / measured
  bool used = false;            ///< counted in the kind's summary
  bool approximate = false;     ///< mapped with a stand-in (a weight format not yet in the core, ...)
  std::string excluded_reason;  ///< why the row is not compared (used == false)
  bool oom = false;             ///< the source recorded out of memory: estimated = device_bytes, measured = usable capacity (GB)
  bool predicted_fit = false;   ///< for an oom row: the estimate says it fits (a wrong verdict)
  std::vector<std::string> notes;  ///< mapping choices: stand-ins, assumed defaults, unit reading
};

/// Errors of one kind, over its used rows (absolute relative errors).
struct ValidationSummary {
  std::string kind;
  int rows = 0;                 ///< rows in the data file
  int used = 0;                 ///< rows compared
  int exact = 0;                ///< used rows mapped without a stand-in
  int excluded = 0;
  double median_abs_error = 0.0;        ///< over all used rows
  double p90_abs_error = 0.0;
  double median_abs_error_exact = 0.0;  ///< over used rows without a stand-in
  double p90_abs_error_exact = 0.0;
  double median_signed_error = 0.0;     ///< > 0: the estimate is high
};

struct ValidationReport {
  std::vector<ValidationRow> rows;
  std::vector<ValidationSummary> summaries;
};

/// The validation data files (data/validation/<kind>.json), compiled into this library only.
const EmbeddedDocument* validation_documents_begin();
const EmbeddedDocument* validation_documents_end();
/// The validation document of `kind` ("inference", "training", "file_size", "speed", "serving",
/// "serving_external"), or nullptr.
const EmbeddedDocument* find_validation_document(std::string_view kind);

/// Compares every embedded validation row of `kind` ("" = all kinds) with its estimate.
/// Deterministic; reads no files (the rows are compiled in).
ValidationReport run_validation(const std::string& kind = "");

/// The report as JSON: {"schema_version": 1, "summaries": [...], "rows": [...]}.
std::string validation_report_json(const ValidationReport& report);

/// The serving rows' report in Markdown (data/validation/ACCURACY.md): errors per metric group and per
/// source, the worst rows, the rows left out and why; serving.json's rows and serving_external.json's
/// (other publishers) in sections of their own. Empty when the report has no serving rows.
std::string serving_accuracy_markdown(const ValidationReport& report);

/// Leave-one-source-out errors in Markdown, for speed and serving: per source, its rows' error when
/// nothing was chosen by looking at them, beside the in-sample error, with the constants of
/// core/include/llmsizer/throughput.hpp that were derived from that source.
std::string leave_one_source_out_markdown(const ValidationReport& report);

/// The constants of the speed model derived from a speed source's rows (SpeedCalibration's fields,
/// by the names they had as throughput.hpp constants: "kEagerOpS", ...; their comments cite the
/// table), comma-separated; "" when none was.
std::string speed_constants_derived_from(const std::string& source);

/// The field of `calibration` that a constant's name in speed_constants_derived_from and
/// data/validation/speed_loso.json stands for ("kEagerOpS" → eager_op_s), or nullptr.
double* speed_constant(SpeedCalibration& calibration, std::string_view name);

/** A speed source's leave-one-source-out errors: |error| of each of its rows estimated again with
 *  the constants derived from it replaced by data/validation/speed_loso.json's values for that
 *  source (derived without its rows). Nothing when the source has no such constant or the file does
 *  not give every one of them. */
std::optional<std::vector<double>> leave_one_source_out_speed_errors(const std::string& source);

/// The error of the serving step model (step_model.hpp) on a vLLM or SGLang speed row: the row's
/// request as one `task: "serve"` request at concurrency 1, its rate output tokens over the
/// end-to-end time as the row's source counts it. Nothing for other engines, batches over 1 and
/// requests the serving answer refuses.
std::optional<double> step_model_speed_error(const ValidationRow& row);

/// The inputs of the serving step model derived from a speed source's rows (their comments cite the
/// table), comma-separated; "" when none was.
std::string step_model_constants_derived_from(const std::string& source);

/// Median and p-th percentile (nearest rank, p in [0, 1]) of `values`; 0 for none.
double median_of(std::vector<double> values);
double percentile_of(std::vector<double> values, double p);

}  // namespace llmsizer
