// SPDX-License-Identifier: MIT
// llmsizer: the native command line. It only parses arguments, calls the JSON edge (api.hpp) and
// prints; every number comes from the core.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "llmsizer/api.hpp"

namespace {

using nlohmann::ordered_json;

constexpr int kExitOk = 0;
constexpr int kExitBadRequest = 2;

const char* kUsage = R"(llmsizer — what it takes to run or train a large language model

usage:
  llmsizer estimate  [FILE|-] [--json] [--gib] [request flags]
  llmsizer recommend [FILE|-] [--json] [request flags]
  llmsizer models    [--json]
  llmsizer hardware  [--json]
  llmsizer options

FILE holds a JSON request (../shared/contract.md); '-' reads standard input. Flags build or
override the request instead:
  --model ID  --task inference|training  --weights FMT  --kv-cache FMT  --engine NAME
  --input N  --output N  --batch N  --gpus N  --hardware ID
  --method full|freeze|lora|qlora  --seq-len N  --micro-batch N  --checkpointing
Sizes print in GB (10^9 bytes); --gib prints GiB (2^30 bytes).
Exit status: 0 success, 2 bad request (one line on standard error; with --json the error JSON on
standard output).
)";

std::string read_all(std::istream& in) {
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

struct Options {
  std::string command;
  std::string file;
  bool json = false;
  bool gib = false;
  std::vector<std::pair<std::string, std::string>> flags;  // request flags, in order
  std::vector<std::string> switches;                       // flags without a value
};

bool is_switch(const std::string& name) { return name == "--checkpointing" || name == "--json" || name == "--gib"; }

std::string print_size(long long bytes, bool gib) {
  char buffer[64];
  if (gib) std::snprintf(buffer, sizeof buffer, "%9.2f GiB", static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0));
  else std::snprintf(buffer, sizeof buffer, "%9.2f GB", static_cast<double>(bytes) / 1e9);
  return buffer;
}

/// Builds the request from FILE and flags. Returns false (after printing) on a usage error.
bool build_request(const Options& o, std::string& request, std::string& error_field, std::string& error_message) {
  ordered_json body = ordered_json::object();
  if (!o.file.empty()) {
    std::string text;
    if (o.file == "-") {
      text = read_all(std::cin);
    } else {
      std::ifstream in(o.file, std::ios::binary);
      if (!in) {
        error_field = "file";
        error_message = "cannot read " + o.file;
        return false;
      }
      text = read_all(in);
    }
    if (o.flags.empty() && o.switches.empty()) {
      request = text;  // passed through untouched: the core reports any problem in it
      return true;
    }
    try {
      body = ordered_json::parse(text);
    } catch (const std::exception&) {
      request = text;
      return true;
    }
    if (!body.is_object()) {
      request = text;
      return true;
    }
  }
  auto number_or_text = [](const std::string& v) -> ordered_json {
    try {
      std::size_t used = 0;
      const long long n = std::stoll(v, &used);
      if (used == v.size()) return n;
    } catch (const std::exception&) {
    }
    try {
      std::size_t used = 0;
      const double d = std::stod(v, &used);
      if (used == v.size()) return d;
    } catch (const std::exception&) {
    }
    return v;
  };
  for (const auto& [name, value] : o.flags) {
    if (name == "--model") body["model"] = value;
    else if (name == "--task") body["task"] = value;
    else if (name == "--weights") body["weights"] = value;
    else if (name == "--kv-cache") body["kv_cache"] = value;
    else if (name == "--engine") body["engine"] = value;
    else if (name == "--input") body["input_tokens"] = number_or_text(value);
    else if (name == "--output") body["output_tokens"] = number_or_text(value);
    else if (name == "--batch") body["batch"] = number_or_text(value);
    else if (name == "--gpus") body["gpus"] = number_or_text(value);
    else if (name == "--hardware") body["hardware"] = value;
    else if (name == "--method") body["training"]["method"] = value;
    else if (name == "--seq-len") body["training"]["seq_len"] = number_or_text(value);
    else if (name == "--micro-batch") body["training"]["micro_batch"] = number_or_text(value);
    else {
      error_field = name;
      error_message = "unknown option " + name + " (see llmsizer --help)";
      return false;
    }
  }
  for (const auto& s : o.switches) {
    if (s == "--checkpointing") body["training"]["gradient_checkpointing"] = true;
  }
  request = body.dump();
  return true;
}

void print_estimate(const ordered_json& r, bool gib) {
  const auto& model = r["model"];
  std::cout << "Model: " << model.value("name", "") << " (" << model.value("id", "") << "), "
            << model.value("params", 0LL) << " parameters";
  if (model.value("active_params", 0LL) != model.value("params", 0LL)) std::cout << ", " << model.value("active_params", 0LL) << " active";
  std::cout << "\n";
  const auto& s = r["settings"];
  std::cout << "Task: " << s.value("task", "") << ", weights " << s.value("weights", "");
  if (s.contains("engine")) {
    std::cout << ", KV cache " << s.value("kv_cache", "") << ", engine " << s.value("engine", "") << ", "
              << s.value("input_tokens", 0LL) << " in + " << s.value("output_tokens", 0LL) << " out tokens, batch "
              << s.value("batch", 0LL);
  }
  std::cout << ", GPUs " << s.value("gpus", 0) << "\n\n";
  std::cout << "Part             Size          Formula (numbers put in)\n";
  for (const auto& line : r["explain"]) {
    char name[32];
    std::snprintf(name, sizeof name, "%-15s", line.value("part", "").c_str());
    std::cout << name << print_size(line.value("bytes", 0LL), gib) << "  " << line.value("formula", "") << "\n"
              << "                               " << line.value("values", "") << "\n";
  }
  const auto& mem = r["memory"];
  std::cout << "\n";
  if (mem.value("device_bytes", 0LL) > 0) {
    std::cout << "Device memory (per GPU, as nvidia-smi shows): " << print_size(mem.value("device_bytes", 0LL), gib) << "\n";
    std::cout << "Tensor peak (torch.cuda.max_memory_allocated): " << print_size(mem.value("tensor_peak_bytes", 0LL), gib) << "\n";
  }
  if (mem.value("host_bytes", 0LL) > 0) std::cout << "Host RAM: " << print_size(mem.value("host_bytes", 0LL), gib) << "\n";
  std::cout << "Disk (download size): " << print_size(r.value("disk_bytes", 0LL), gib) << "\n";
  if (r.contains("fit")) std::cout << "Fit: " << r["fit"].dump() << "\n";
  if (r.contains("throughput")) std::cout << "Speed: " << r["throughput"].dump() << "\n";
  for (const auto& w : r["warnings"]) std::cout << "warning: " << w.get<std::string>() << "\n";
  std::cout << (gib ? "(GiB = 2^30 bytes)\n" : "(GB = 10^9 bytes; --gib for GiB)\n");
}

void print_models(const ordered_json& r) {
  std::printf("%-34s %16s %16s %7s\n", "id", "params", "published", "layers");
  for (const auto& m : r["models"]) {
    const std::string published = m["published_params"].is_number() ? std::to_string(m["published_params"].get<long long>()) : "-";
    std::printf("%-34s %16lld %16s %7d\n", m.value("id", "").c_str(), m.value("params", 0LL), published.c_str(), m.value("layers", 0));
  }
}

int report_error(const std::string& response, bool json_output) {
  const auto e = ordered_json::parse(response);
  std::cerr << "llmsizer: " << e["error"].value("field", "") << ": " << e["error"].value("message", "") << "\n";
  if (json_output) std::cout << response << "\n";
  return kExitBadRequest;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::cout << kUsage;
    return args.empty() ? kExitBadRequest : kExitOk;
  }
  o.command = args[0];
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--json") o.json = true;
    else if (a == "--gib") o.gib = true;
    else if (is_switch(a)) o.switches.push_back(a);
    else if (a.rfind("--", 0) == 0) {
      if (i + 1 >= args.size()) {
        std::cerr << "llmsizer: " << a << ": needs a value (see llmsizer --help)\n";
        return kExitBadRequest;
      }
      o.flags.emplace_back(a, args[++i]);
    } else if (o.file.empty()) {
      o.file = a;
    } else {
      std::cerr << "llmsizer: unexpected argument " << a << " (see llmsizer --help)\n";
      return kExitBadRequest;
    }
  }

  if (o.command == "models" || o.command == "hardware" || o.command == "options") {
    const std::string out = o.command == "models" ? llmsizer::list_models()
                          : o.command == "hardware" ? llmsizer::list_hardware()
                                                    : llmsizer::list_options();
    if (llmsizer::is_error_response(out)) return report_error(out, o.json);
    if (o.json || o.command != "models") std::cout << out << "\n";
    else print_models(ordered_json::parse(out));
    return kExitOk;
  }
  if (o.command != "estimate" && o.command != "recommend") {
    std::cerr << "llmsizer: unknown command " << o.command << " (see llmsizer --help)\n";
    return kExitBadRequest;
  }
  std::string request, field, message;
  if (!build_request(o, request, field, message)) {
    std::cerr << "llmsizer: " << field << ": " << message << "\n";
    if (o.json) std::cout << ordered_json{{"error", {{"field", field}, {"message", message}}}}.dump() << "\n";
    return kExitBadRequest;
  }
  const std::string response = o.command == "estimate" ? llmsizer::estimate(request) : llmsizer::recommend(request);
  if (llmsizer::is_error_response(response)) return report_error(response, o.json);
  if (o.json) {
    std::cout << response << "\n";
  } else if (o.command == "estimate") {
    print_estimate(ordered_json::parse(response), o.gib);
  } else {
    const auto r = ordered_json::parse(response);
    for (const auto& opt : r["options"]) std::cout << opt.dump() << "\n";
  }
  return kExitOk;
}
