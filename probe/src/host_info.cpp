// SPDX-License-Identifier: MIT
#include "host_info.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>
#include <utility>

namespace llmsizer_probe {
namespace {

std::string trim(const std::string& s) {
  const auto begin = s.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) return "";
  const auto end = s.find_last_not_of(" \t\r\n");
  return s.substr(begin, end - begin + 1);
}

std::string read_first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return trim(line);
}

// CPU flags worth recording: they decide which GEMM kernels (and bf16 paths) a BLAS can use.
const char* const kInterestingFlags[] = {"sse4_2",      "avx",         "avx2",     "fma",      "avx512f",
                                         "avx512_bf16", "avx512_fp16", "amx_bf16", "amx_int8", "asimd",
                                         "sve",         "bf16",        "i8mm"};

void read_cpuinfo(HostInfo& host) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  std::set<std::pair<std::string, std::string>> cores;  // (physical id, core id)
  std::string physical_id;
  int processors = 0;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string key = trim(line.substr(0, colon));
    const std::string value = trim(line.substr(colon + 1));
    if (key == "processor") {
      ++processors;
    } else if ((key == "model name" || key == "Model" || key == "cpu model") && host.cpu_model.empty()) {
      host.cpu_model = value;
    } else if (key == "physical id") {
      physical_id = value;
    } else if (key == "core id") {
      cores.emplace(physical_id, value);
    } else if ((key == "flags" || key == "Features") && host.cpu_flags.empty()) {
      std::istringstream words(value);
      std::set<std::string> present;
      for (std::string w; words >> w;) present.insert(w);
      for (const char* flag : kInterestingFlags) {
        if (present.count(flag)) host.cpu_flags.emplace_back(flag);
      }
    }
  }
  host.threads = processors;
  host.cores = static_cast<int>(cores.size());
}

void read_meminfo(HostInfo& host) {
  std::ifstream in("/proc/meminfo");
  std::string key;
  std::int64_t kib = 0;
  std::string unit;
  while (in >> key >> kib) {
    std::getline(in, unit);
    if (key == "MemTotal:") host.ram_total_bytes = kib * 1024;
    if (key == "MemAvailable:") host.ram_available_bytes = kib * 1024;
  }
}

void read_caches(HostInfo& host) {
  const std::string base = "/sys/devices/system/cpu/";
  for (int index = 0; index < 16; ++index) {
    const std::string dir0 = base + "cpu0/cache/index" + std::to_string(index) + "/";
    const std::string level = read_first_line(dir0 + "level");
    if (level.empty()) break;
    CacheLevel cache;
    cache.level = std::stoi(level);
    cache.type = read_first_line(dir0 + "type");
    cache.size_bytes = parse_cache_size(read_first_line(dir0 + "size"));
    // Instances: distinct shared_cpu_list values over all CPUs for this index.
    std::set<std::string> sharing;
    for (int cpu = 0; cpu < std::max(host.threads, 1); ++cpu) {
      const std::string list =
          read_first_line(base + "cpu" + std::to_string(cpu) + "/cache/index" + std::to_string(index) +
                          "/shared_cpu_list");
      if (!list.empty()) sharing.insert(list);
    }
    cache.instances = std::max<int>(1, static_cast<int>(sharing.size()));
    host.caches.push_back(cache);
  }
}

std::string read_os() {
  std::string pretty;
  std::ifstream in("/etc/os-release");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("PRETTY_NAME=", 0) == 0) {
      pretty = line.substr(12);
      pretty.erase(std::remove(pretty.begin(), pretty.end(), '"'), pretty.end());
    }
  }
  struct utsname u {};
  std::string kernel;
  if (uname(&u) == 0) kernel = std::string(u.sysname) + " " + u.release + " " + u.machine;
  if (pretty.empty()) return kernel.empty() ? "unknown" : kernel;
  return kernel.empty() ? pretty : pretty + " (" + kernel + ")";
}

std::string compiler_name() {
#if defined(__clang__)
  return std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
  return std::string("gcc ") + __VERSION__;
#else
  return "unknown";
#endif
}

}  // namespace

std::int64_t parse_cache_size(const std::string& text) {
  if (text.empty()) return 0;
  std::size_t used = 0;
  std::int64_t value = 0;
  try {
    value = std::stoll(text, &used);
  } catch (...) {
    return 0;
  }
  const std::string suffix = trim(text.substr(used));
  if (suffix == "K" || suffix == "KiB" || suffix == "KB") return value * 1024;
  if (suffix == "M" || suffix == "MiB" || suffix == "MB") return value * 1024 * 1024;
  if (suffix == "G" || suffix == "GiB" || suffix == "GB") return value * 1024 * 1024 * 1024;
  return value;
}

std::int64_t HostInfo::last_level_cache_bytes() const {
  const CacheLevel* last = nullptr;
  for (const auto& c : caches) {
    if (c.type == "Instruction") continue;
    if (!last || c.level > last->level) last = &c;
  }
  return last ? last->size_bytes * last->instances : 0;
}

bool HostInfo::has_flag(const std::string& flag) const {
  return std::find(cpu_flags.begin(), cpu_flags.end(), flag) != cpu_flags.end();
}

HostInfo read_host_info() {
  HostInfo host;
  read_cpuinfo(host);
  if (host.threads <= 0) {
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    host.threads = online > 0 ? static_cast<int>(online) : static_cast<int>(std::thread::hardware_concurrency());
  }
  if (host.cores <= 0) host.cores = host.threads;  // no core ids (some VMs, ARM): count logical CPUs
  if (host.cpu_model.empty()) host.cpu_model = "unknown";
  read_meminfo(host);
  read_caches(host);
  std::ifstream loadavg("/proc/loadavg");
  double load = 0;
  for (int i = 0; i < 3 && loadavg >> load; ++i) host.load_average.push_back(load);
  host.os = read_os();
  host.compiler = compiler_name();
  return host;
}

}  // namespace llmsizer_probe
