// SPDX-License-Identifier: MIT
// The request corpus (tests/corpus/requests.jsonl) through the JSON edge, natively:
//   llmsizer_corpus hash  REQUESTS [IGNORED]          one hash per request, in order
//   llmsizer_corpus check REQUESTS HASHES [IGNORED]   exit 1 when a response's hash changed
//   llmsizer_corpus dump  REQUESTS                    the responses, one per line (for the WASM test)
// A response is hashed (FNV-1a, 64 bits) after the fields listed in IGNORED are removed: fields a
// change adds on purpose (one path per line, '*' matches every array element or object key, e.g.
// `explain/*/id`), so the rest must stay byte-identical.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "llmsizer/api.hpp"

namespace {

using json = nlohmann::ordered_json;

struct Entry {
  std::string fn;
  std::string body;
};

std::vector<Entry> read_requests(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::vector<Entry> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const json j = json::parse(line);
    out.push_back({j.at("fn").get<std::string>(), j.at("body").get<std::string>()});
  }
  return out;
}

std::vector<std::vector<std::string>> read_ignored(const std::string& path) {
  std::vector<std::vector<std::string>> out;
  if (path.empty()) return out;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> parts;
    std::stringstream ss(line);
    std::string part;
    while (std::getline(ss, part, '/')) parts.push_back(part);
    out.push_back(parts);
  }
  return out;
}

void remove_path(json& node, const std::vector<std::string>& path, std::size_t at) {
  if (at >= path.size()) return;
  const std::string& key = path[at];
  const bool last = at + 1 == path.size();
  if (node.is_array() && key == "*") {
    for (auto& child : node) remove_path(child, path, at + 1);
  } else if (node.is_object()) {
    if (key == "*") {
      for (auto it = node.begin(); it != node.end(); ++it) remove_path(it.value(), path, at + 1);
    } else if (node.contains(key)) {
      if (last) node.erase(key);
      else remove_path(node[key], path, at + 1);
    }
  }
}

std::string respond(const Entry& e) {
  return e.fn == "recommend" ? llmsizer::recommend(e.body) : llmsizer::estimate(e.body);
}

std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

std::string normalized_hash(const std::string& response, const std::vector<std::vector<std::string>>& ignored) {
  json j = json::parse(response);
  for (const auto& path : ignored) remove_path(j, path, 0);
  char buffer[20];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(fnv1a(j.dump(-1, ' ', false, json::error_handler_t::replace))));
  return buffer;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (argc < 3) {
      std::cerr << "usage: llmsizer_corpus hash|check|dump REQUESTS [HASHES] [IGNORED]\n";
      return 2;
    }
    const std::string mode = argv[1];
    const std::vector<Entry> entries = read_requests(argv[2]);
    if (mode == "dump") {
      for (const auto& e : entries) std::cout << respond(e) << '\n';
      return 0;
    }
    if (mode == "hash") {
      const auto ignored = read_ignored(argc > 3 ? argv[3] : "");
      for (const auto& e : entries) std::cout << normalized_hash(respond(e), ignored) << '\n';
      return 0;
    }
    if (mode == "check" && argc >= 4) {
      std::ifstream in(argv[3]);
      std::vector<std::string> expected;
      for (std::string line; std::getline(in, line);) {
        if (!line.empty()) expected.push_back(line);
      }
      if (expected.size() != entries.size()) {
        std::cerr << "the hash file has " << expected.size() << " lines for " << entries.size() << " requests\n";
        return 1;
      }
      const auto ignored = read_ignored(argc > 4 ? argv[4] : "");
      int changed = 0;
      for (std::size_t i = 0; i < entries.size(); ++i) {
        const std::string response = respond(entries[i]);
        if (normalized_hash(response, ignored) != expected[i]) {
          if (++changed <= 20) std::cerr << "changed #" << i + 1 << " " << entries[i].fn << " " << entries[i].body.substr(0, 200) << "\n  now: " << response.substr(0, 300) << "\n";
        }
      }
      std::cout << entries.size() - changed << " of " << entries.size() << " responses unchanged\n";
      return changed == 0 ? 0 : 1;
    }
    std::cerr << "unknown mode " << mode << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "llmsizer_corpus: " << e.what() << "\n";
    return 2;
  }
}
