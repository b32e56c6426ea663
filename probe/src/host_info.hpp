// SPDX-License-Identifier: MIT
#pragma once
/// What the operating system says about this machine: CPU model, cores, RAM, caches (Linux /proc and
/// /sys; elsewhere the fields fall back to what the C++ library knows).
#include <cstdint>
#include <string>
#include <vector>

namespace llmsizer_probe {

struct CacheLevel {
  int level = 0;
  std::string type;             ///< "Data", "Instruction", "Unified"
  std::int64_t size_bytes = 0;  ///< one instance
  int instances = 0;            ///< distinct copies across the CPUs (per-core L2 on 8 cores: 8)
};

struct HostInfo {
  std::string cpu_model;
  int cores = 0;    ///< physical cores
  int threads = 0;  ///< logical CPUs online
  std::int64_t ram_total_bytes = 0;
  std::int64_t ram_available_bytes = 0;
  std::vector<CacheLevel> caches;
  std::vector<std::string> cpu_flags;  ///< the few that matter here (avx2, avx512_bf16, amx_bf16, ...)
  std::string os;
  std::string compiler;
  /// /proc/loadavg at the start (1, 5, 15 minutes): a busy machine measures low, so keep it with the run.
  std::vector<double> load_average;

  /// Bytes of the last (highest) cache level over all its instances; 0 when unknown.
  std::int64_t last_level_cache_bytes() const;
  bool has_flag(const std::string& flag) const;
};

HostInfo read_host_info();

/// "48K" -> 49152, "2048K" -> 2097152, "1M" -> 1048576; 0 when unreadable.
std::int64_t parse_cache_size(const std::string& text);

}  // namespace llmsizer_probe
