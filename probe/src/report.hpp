// SPDX-License-Identifier: MIT
#pragma once
/// The measured-data file format (data/measured/<id>.json, data/schema/measured.schema.json) and the
/// index of runs (data/measured/index.json).
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cpu_bench.hpp"
#include "cuda_probe.hpp"
#include "host_info.hpp"

namespace llmsizer_probe {

/// Version of the file format; bump on any change that breaks a reader.
constexpr int kSchemaVersion = 1;

struct ProbeRun {
  std::string id;
  std::vector<std::string> argv;
  bool quick = false;
  std::string timestamp_utc;
  double runtime_s = 0;
  HostInfo host;
  int cpu_threads = 1;
  CpuBenchResult cpu;
  CudaProbeResult cuda;
};

/// The whole file as JSON (keys sorted by nlohmann::json's std::map; write with dump(2) and a newline).
nlohmann::json build_document(const ProbeRun& run);

/// `index` (possibly null) with the entry for `document` added or replaced, runs sorted by id.
nlohmann::json update_index(const nlohmann::json& index, const nlohmann::json& document);

/// Lower-case letters, digits and single dashes: "Intel(R) Xeon(R) Processor" -> "intel-r-xeon-r-processor".
std::string slug(const std::string& text);

/// The id used when none is given: "probe-" + the main device's name + "-<threads>t" for CPUs.
std::string default_id(const HostInfo& host, const CudaProbeResult& cuda);

/// `x` rounded to `digits` significant digits (keeps the files short and readable).
double round_significant(double x, int digits);

}  // namespace llmsizer_probe
