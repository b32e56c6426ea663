// SPDX-License-Identifier: MIT
// The native half of the paired benchmark (bench/run.mjs): times calls through the JSON edge
// (api.hpp), exactly the calls the WASM module's exports make, so the two can be compared call for
// call. Reads the cases from a file, one per line: NAME<TAB>CALL<TAB>RUNS<TAB>ARGUMENT, where CALL is
// estimate, recommend, recommendGrown (recommend against the catalog grown ten-fold, grown_catalog.hpp),
// listModels, listHardware or inspect (ARGUMENT: a file whose bytes are given as a model file's
// leading bytes, then a tab and the whole file's size; without the size, the bytes are the whole
// file). Prints two lines per case: NAME then the wall-clock
// milliseconds of each run, tab-separated, and NAME then the process CPU milliseconds of the same
// runs (on a shared machine the CPU time is what a preempted run still measures right). Three
// untimed calls precede each case's runs.
// usage: llmsizer-edge-bench CASES_FILE
#include <chrono>
#include <ctime>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "grown_catalog.hpp"
#include "llmsizer/api.hpp"
#include "llmsizer/embedded_catalog.hpp"

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

double cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return 1e3 * static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_nsec);
}

std::vector<std::string> split_tabs(const std::string& line, std::size_t fields) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (out.size() + 1 < fields) {
    const std::size_t tab = line.find('\t', start);
    if (tab == std::string::npos) break;
    out.push_back(line.substr(start, tab - start));
    start = tab + 1;
  }
  out.push_back(line.substr(start));
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: llmsizer-edge-bench CASES_FILE\n");
    return 2;
  }
  std::istringstream cases(read_file(argv[1]));
  std::string line;
  std::size_t sink = 0;  // keeps the results alive
  while (std::getline(cases, line)) {
    if (line.empty()) continue;
    const std::vector<std::string> f = split_tabs(line, 4);
    if (f.size() != 4) {
      std::fprintf(stderr, "bad case line: %s\n", line.c_str());
      return 2;
    }
    const std::string& call = f[1];
    const int runs = std::stoi(f[2]);
    // inspect: PATH, or PATH<TAB>FILE_SIZE (the whole file's size, when PATH holds only its
    // leading bytes; without it the bytes are the whole file).
    std::string argument = f[3];
    double file_size = -1;
    if (call == "inspect") {
      const std::size_t tab = f[3].find('\t');
      argument = read_file(f[3].substr(0, tab));
      file_size = tab == std::string::npos ? static_cast<double>(argument.size()) : std::stod(f[3].substr(tab + 1));
    }
    std::function<std::string()> fn;
    if (call == "estimate") fn = [&] { return llmsizer::estimate(argument); };
    else if (call == "recommend") fn = [&] { return llmsizer::recommend(argument); };
    else if (call == "recommendGrown") fn = [&] {
      static const llmsizer::bench::GrownCatalog grown(llmsizer::embedded_catalog(), 10);
      return llmsizer::recommend(argument, grown);
    };
    else if (call == "listModels") fn = [] { return llmsizer::list_models(); };
    else if (call == "listHardware") fn = [] { return llmsizer::list_hardware(); };
    else if (call == "inspect") fn = [&] { return llmsizer::inspect_model_file(argument, file_size); };
    else {
      std::fprintf(stderr, "unknown call: %s\n", call.c_str());
      return 2;
    }
    for (int i = 0; i < 3; ++i) sink += fn().size();
    std::vector<double> wall, cpu;
    for (int i = 0; i < runs; ++i) {
      const double cpu_start = cpu_ms();
      const auto start = std::chrono::steady_clock::now();
      sink += fn().size();
      const std::chrono::duration<double, std::milli> ms = std::chrono::steady_clock::now() - start;
      cpu.push_back(cpu_ms() - cpu_start);
      wall.push_back(ms.count());
    }
    for (const auto* times : {&wall, &cpu}) {
      std::printf("%s", f[0].c_str());
      for (const double ms : *times) std::printf("\t%.6f", ms);
      std::printf("\n");
    }
  }
  return sink == 0 ? 1 : 0;
}
