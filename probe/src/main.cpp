// SPDX-License-Identifier: MIT
// llmsizer-probe: measures this machine (CPU, and CUDA when built with it and a device is present) and
// writes data/measured/<id>.json plus the index of runs next to it. See probe/README.md.
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "cpu_bench.hpp"
#include "cuda_probe.hpp"
#include "host_info.hpp"
#include "report.hpp"

namespace fs = std::filesystem;
using namespace llmsizer_probe;

namespace {

constexpr const char* kUsage =
    "usage: llmsizer-probe [--quick] [--output FILE] [--id ID] [--threads N] [--stream-mib N] [--no-cuda]\n"
    "  --output FILE    where to write (default " LLMSIZER_PROBE_DEFAULT_DIR "/<id>.json);\n"
    "                   index.json next to it is updated\n"
    "  --id ID          id of the run; must equal FILE's name without .json (default: from the hardware,\n"
    "                   or FILE's name when --output is given)\n"
    "  --quick          fewer samples and smaller matrices (for CI; about 10 s on 2 cores)\n"
    "  --threads N      CPU threads for STREAM and BLAS (default: all logical CPUs)\n"
    "  --stream-mib N   MiB of the three STREAM arrays together (default: max(4x last-level cache, 256))\n"
    "  --no-cuda        skip the CUDA part\n";

struct Args {
  std::string output;
  std::string id;
  bool quick = false;
  bool no_cuda = false;
  int threads = 0;
  long long stream_mib = 0;
};

[[noreturn]] void usage_error(const std::string& message) {
  std::cerr << "llmsizer-probe: " << message << "\n" << kUsage;
  std::exit(2);
}

long long parse_positive(const std::string& flag, const std::string& text, long long max) {
  try {
    std::size_t used = 0;
    const long long v = std::stoll(text, &used);
    if (used == text.size() && v >= 1 && v <= max) return v;
  } catch (...) {
  }
  usage_error(flag + " must be a whole number from 1 to " + std::to_string(max) + "; got '" + text + "'");
}

Args parse_args(int argc, char** argv) {
  Args args;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage_error(a + " needs a value");
      return argv[++i];
    };
    if (a == "--output") {
      args.output = value();
    } else if (a == "--id") {
      args.id = value();
    } else if (a == "--quick") {
      args.quick = true;
    } else if (a == "--no-cuda") {
      args.no_cuda = true;
    } else if (a == "--threads") {
      args.threads = static_cast<int>(parse_positive(a, value(), 4096));
    } else if (a == "--stream-mib") {
      args.stream_mib = parse_positive(a, value(), 1 << 20);
    } else if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      std::exit(0);
    } else {
      usage_error("unknown argument '" + a + "'");
    }
  }
  if (!args.id.empty() && args.id != slug(args.id)) {
    usage_error("--id must use lower-case letters, digits and single dashes, e.g. '" + slug(args.id) + "'");
  }
  return args;
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

void write_json(const fs::path& path, const nlohmann::json& doc) {
  const fs::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp);
    out << doc.dump(2) << "\n";
    if (!out) throw std::runtime_error("cannot write " + tmp.string());
  }
  fs::rename(tmp, path);
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse_args(argc, argv);
  ProbeRun run;
  run.argv.assign(argv, argv + argc);
  run.argv[0] = "llmsizer-probe";  // not the build path: the file should not reveal local folders
  run.quick = args.quick;
  run.timestamp_utc = utc_now();
  try {
    run.runtime_s = seconds_of([&] {
      run.host = read_host_info();
      run.cpu_threads = args.threads > 0 ? args.threads : run.host.threads;
      CpuBenchOptions cpu_options;
      cpu_options.threads = run.cpu_threads;
      cpu_options.quick = args.quick;
      cpu_options.stream_total_bytes =
          args.stream_mib > 0 ? args.stream_mib * 1024 * 1024 : default_stream_total_bytes(run.host);
      std::cerr << "llmsizer-probe: CPU (" << run.cpu_threads << " threads, STREAM arrays "
                << cpu_options.stream_total_bytes / (1024 * 1024) << " MiB in all)\n";
      run.cpu = run_cpu_benchmarks(run.host, cpu_options);
      if (args.no_cuda) {
        run.cuda.skip_reason = "skipped by --no-cuda";
      } else {
        std::cerr << "llmsizer-probe: CUDA\n";
        CudaProbeOptions cuda_options;
        cuda_options.quick = args.quick;
        cuda_options.cpu_threads = run.cpu_threads;
        cuda_options.cpu_sgemm_samples_s = cpu_sgemm_samples_s;
        run.cuda = run_cuda_probe(cuda_options);
      }
    });

    fs::path output;
    if (!args.output.empty()) {
      output = args.output;
      run.id = args.id.empty() ? slug(output.stem().string()) : args.id;
      if (run.id != output.stem().string()) {
        usage_error("the id '" + run.id + "' must equal the output file's name without .json ('" +
                    output.stem().string() + "')");
      }
    } else {
      run.id = args.id.empty() ? default_id(run.host, run.cuda) : args.id;
      output = fs::path(LLMSIZER_PROBE_DEFAULT_DIR) / (run.id + ".json");
    }
    if (output.has_parent_path()) fs::create_directories(output.parent_path());

    const nlohmann::json doc = build_document(run);
    write_json(output, doc);
    const fs::path index_path = output.parent_path() / "index.json";
    nlohmann::json index;
    if (fs::exists(index_path)) {
      std::ifstream in(index_path);
      index = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    }
    write_json(index_path, update_index(index, doc));

    const auto& cpu = doc["summary"]["cpu"];
    std::cout << "wrote " << output.string() << " (" << run.runtime_s << " s)\n"
              << "  CPU memory bandwidth: " << cpu.value("memory_bandwidth_gb_per_s", 0.0) << " GB/s ("
              << cpu.value("memory_bandwidth_source", std::string("-")) << ")\n"
              << "  CPU fp32 GEMM: " << cpu["matmul_tflops"].value("fp32", 0.0) * 1e3 << " GFLOP/s\n"
              << "  CUDA: "
              << (run.cuda.skip_reason.empty() ? doc["summary"]["cuda"].value("name", std::string("?"))
                                               : run.cuda.skip_reason)
              << "\n";
  } catch (const std::exception& e) {
    std::cerr << "llmsizer-probe: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
