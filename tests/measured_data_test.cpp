// SPDX-License-Identifier: MIT
// Measured-hardware files (data/measured/*.json, written by llmsizer-probe and the WebGPU probe): each
// follows data/schema/measured.schema.json, its numbers agree with its own samples, its references
// resolve, and index.json lists exactly the files present. With LLMSIZER_MEASURED_DIR set, the same
// checks run on that folder instead (CTest uses it on the probe's fresh --quick output).
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace measured_data_test {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

fs::path measured_dir() {
  if (const char* dir = std::getenv("LLMSIZER_MEASURED_DIR"); dir && *dir) return dir;
  return fs::path(LLMSIZER_DATA_DIR) / "measured";
}

json read_json(const fs::path& path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  return json::parse(in);
}

const json& schema() {
  static const json s = read_json(fs::path(LLMSIZER_DATA_DIR) / "schema" / "measured.schema.json");
  return s;
}

/// Every data file in the measured folder: *.json except index.json and schemas.
std::vector<fs::path> measured_files() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(measured_dir())) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() == ".json" && name != "index.json" &&
        name.find(".schema.json") == std::string::npos) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The subset of JSON Schema 2020-12 that measured.schema.json uses: type, const, enum, required,
// properties, additionalProperties, items, minItems, minimum, exclusiveMinimum, minLength, pattern,
// and local $ref. Anything else in the schema would be ignored, so the test below checks that the
// schema uses no other keyword.
const std::set<std::string> kSupportedKeywords = {
    "$schema", "$id",      "$defs",   "$ref",    "title",   "description", "type",
    "const",   "enum",     "required", "properties", "additionalProperties", "items", "minItems",
    "minimum", "exclusiveMinimum", "minLength", "pattern"};

bool has_type(const json& value, const std::string& type) {
  if (type == "object") return value.is_object();
  if (type == "array") return value.is_array();
  if (type == "string") return value.is_string();
  if (type == "integer") return value.is_number_integer();
  if (type == "number") return value.is_number();
  if (type == "boolean") return value.is_boolean();
  if (type == "null") return value.is_null();
  return false;
}

void validate(const json& node, const json& value, const std::string& path, std::vector<std::string>& errors) {
  if (node.contains("$ref")) {
    const std::string ref = node["$ref"];
    const std::string prefix = "#/$defs/";
    REQUIRE(ref.rfind(prefix, 0) == 0);
    validate(schema()["$defs"][ref.substr(prefix.size())], value, path, errors);
  }
  if (node.contains("type")) {
    const json types = node["type"].is_array() ? node["type"] : json::array({node["type"]});
    const bool ok = std::any_of(types.begin(), types.end(), [&](const json& t) { return has_type(value, t); });
    if (!ok) {
      errors.push_back(path + ": expected " + types.dump() + ", got " + value.dump());
      return;
    }
  }
  if (node.contains("const") && value != node["const"]) errors.push_back(path + ": must be " + node["const"].dump());
  if (node.contains("enum")) {
    const auto& allowed = node["enum"];
    if (std::find(allowed.begin(), allowed.end(), value) == allowed.end()) {
      errors.push_back(path + ": " + value.dump() + " is not one of " + allowed.dump());
    }
  }
  if (value.is_number()) {
    const double x = value.get<double>();
    if (node.contains("minimum") && x < node["minimum"].get<double>()) errors.push_back(path + ": below minimum");
    if (node.contains("exclusiveMinimum") && x <= node["exclusiveMinimum"].get<double>()) {
      errors.push_back(path + ": must be above " + node["exclusiveMinimum"].dump());
    }
  }
  if (value.is_string()) {
    const std::string s = value;
    if (node.contains("minLength") && s.size() < node["minLength"].get<std::size_t>()) {
      errors.push_back(path + ": too short");
    }
    if (node.contains("pattern") && !std::regex_search(s, std::regex(node["pattern"].get<std::string>()))) {
      errors.push_back(path + ": '" + s + "' does not match " + node["pattern"].get<std::string>());
    }
  }
  if (value.is_array()) {
    if (node.contains("minItems") && value.size() < node["minItems"].get<std::size_t>()) {
      errors.push_back(path + ": needs at least " + node["minItems"].dump() + " items");
    }
    if (node.contains("items")) {
      for (std::size_t i = 0; i < value.size(); ++i) {
        validate(node["items"], value[i], path + "[" + std::to_string(i) + "]", errors);
      }
    }
  }
  if (value.is_object()) {
    for (const auto& key : node.value("required", json::array())) {
      if (!value.contains(key.get<std::string>())) errors.push_back(path + ": missing " + key.dump());
    }
    const json properties = node.value("properties", json::object());
    for (const auto& [key, child] : value.items()) {
      if (properties.contains(key)) {
        validate(properties[key], child, path + "." + key, errors);
      } else if (node.contains("additionalProperties")) {
        const json& extra = node["additionalProperties"];
        if (extra.is_boolean() && !extra.get<bool>()) {
          errors.push_back(path + ": unknown key '" + key + "'");
        } else if (extra.is_object()) {
          validate(extra, child, path + "." + key, errors);
        }
      }
    }
  }
}

std::vector<std::string> schema_errors(const json& document) {
  std::vector<std::string> errors;
  validate(schema(), document, "$", errors);
  return errors;
}

void collect_keywords(const json& node, bool in_properties, std::set<std::string>& out) {
  if (!node.is_object()) return;
  for (const auto& [key, child] : node.items()) {
    // Under "properties" and "$defs" the keys are names, not keywords.
    if (!in_properties) out.insert(key);
    collect_keywords(child, key == "properties" || key == "$defs", out);
  }
}

const json* find_result(const json& doc, const std::string& name) {
  for (const auto& r : doc["results"]) {
    if (r["name"] == name) return &r;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("The measured schema uses only keywords the test's validator understands", "[measured][data]") {
  std::set<std::string> used;
  collect_keywords(schema(), false, used);
  for (const auto& keyword : used) {
    CAPTURE(keyword);
    CHECK(kSupportedKeywords.count(keyword) == 1);
  }
}

TEST_CASE("The schema check rejects broken measured files", "[measured][data]") {
  // A minimal valid document, written by hand from the schema.
  const json valid = json::parse(R"({
    "schema_version": 1, "id": "probe-example", "timestamp_utc": "2025-01-02T03:04:05Z",
    "probe": {"name": "llmsizer-probe", "version": "0.1.0", "git_commit": "abc1234", "argv": ["llmsizer-probe"],
              "quick": true, "runtime_s": 1.5},
    "host": {"cpu_model": "x", "cores": 2, "threads": 2, "ram_total_bytes": 1000, "ram_available_bytes": 500,
             "caches": [], "os": "Linux", "compiler": "gcc"},
    "devices": [{"id": "cpu0", "kind": "cpu", "name": "x"}],
    "results": [{"name": "cpu.stream.triad", "device": "cpu0", "unit": "GB/s", "inputs": {"threads": 2},
                 "samples": [10.0, 12.0], "summary": {"median": 11.0, "mean": 11.0, "stddev": 1.41, "min": 10.0,
                 "max": 12.0}}],
    "skipped": [{"name": "cuda", "skip_reason": "built without CUDA"}],
    "summary": {"primary": "cpu", "cpu": {"memory_bandwidth_gb_per_s": 11.0}, "cuda": {"skip_reason": "x"}}
  })");
  REQUIRE(schema_errors(valid).empty());

  SECTION("a missing required key") {
    json doc = valid;
    doc.erase("timestamp_utc");
    CHECK(schema_errors(doc).size() == 1);
  }
  SECTION("a sample that is not positive") {
    json doc = valid;
    doc["results"][0]["samples"][1] = 0.0;
    CHECK(schema_errors(doc).size() == 1);
  }
  SECTION("bytes as a fraction") {
    json doc = valid;
    doc["host"]["ram_total_bytes"] = 1000.5;
    CHECK(schema_errors(doc).size() == 1);
  }
  SECTION("an unknown unit and an unknown summary key") {
    json doc = valid;
    doc["results"][0]["unit"] = "MB/s";
    doc["summary"]["cpu"]["bandwidth"] = 3.0;
    CHECK(schema_errors(doc).size() == 2);
  }
  SECTION("empty samples") {
    json doc = valid;
    doc["results"][0]["samples"] = json::array();
    CHECK(schema_errors(doc).size() == 1);
  }
}

TEST_CASE("Every measured file follows the schema and is named after its id", "[measured][data]") {
  const auto files = measured_files();
  REQUIRE(!files.empty());
  for (const auto& file : files) {
    CAPTURE(file.string());
    const json doc = read_json(file);
    const auto errors = schema_errors(doc);
    for (const auto& e : errors) UNSCOPED_INFO(e);
    CHECK(errors.empty());
    CHECK(doc.value("id", "") == file.stem().string());
  }
}

TEST_CASE("Every measured result's summary agrees with its own samples", "[measured][data]") {
  for (const auto& file : measured_files()) {
    const json doc = read_json(file);
    for (const auto& r : doc["results"]) {
      CAPTURE(file.filename().string(), r["name"].get<std::string>());
      std::vector<double> samples = r["samples"].get<std::vector<double>>();
      REQUIRE(!samples.empty());
      std::sort(samples.begin(), samples.end());
      const json& s = r["summary"];
      const double median = s["median"], lo = s["min"], hi = s["max"], mean = s["mean"];
      CHECK(lo <= median);
      CHECK(median <= hi);
      CHECK(lo <= mean);
      CHECK(mean <= hi);
      CHECK(s["stddev"].get<double>() >= 0);
      // The files keep 5 significant digits, so compare within 1e-4.
      const std::size_t n = samples.size();
      const double expected_median = n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
      CHECK_THAT(median, Catch::Matchers::WithinRel(expected_median, 1e-4));
      CHECK_THAT(lo, Catch::Matchers::WithinRel(samples.front(), 1e-4));
      CHECK_THAT(hi, Catch::Matchers::WithinRel(samples.back(), 1e-4));
    }
  }
}

TEST_CASE("Measured results and summaries refer to listed devices and results", "[measured][data]") {
  for (const auto& file : measured_files()) {
    CAPTURE(file.filename().string());
    const json doc = read_json(file);
    std::set<std::string> devices;
    for (const auto& d : doc["devices"]) devices.insert(d["id"].get<std::string>());
    for (const auto& r : doc["results"]) {
      CAPTURE(r["name"].get<std::string>());
      CHECK(devices.count(r["device"].get<std::string>()) == 1);
    }
    const json& summary = doc["summary"];
    const std::string primary = summary["primary"];
    REQUIRE(summary.contains(primary));
    // The section the calculator uses must hold figures, not a skip reason.
    CHECK_FALSE(summary[primary].contains("skip_reason"));
    CHECK(summary[primary].contains("memory_bandwidth_gb_per_s"));
    for (const auto& [kind, section] : summary.items()) {
      if (!section.is_object()) continue;
      CAPTURE(kind);
      if (section.contains("device")) CHECK(devices.count(section["device"].get<std::string>()) == 1);
      if (section.contains("memory_bandwidth_source")) {
        const json* source = find_result(doc, section["memory_bandwidth_source"]);
        REQUIRE(source != nullptr);
        CHECK((*source)["unit"] == "GB/s");
        CHECK_THAT(section["memory_bandwidth_gb_per_s"].get<double>(),
                   Catch::Matchers::WithinRel((*source)["summary"]["median"].get<double>(), 1e-4));
      }
    }
  }
}

TEST_CASE("index.json lists exactly the measured files present", "[measured][data]") {
  const fs::path index_path = measured_dir() / "index.json";
  REQUIRE(fs::exists(index_path));
  const json index = read_json(index_path);
  REQUIRE(index.value("schema_version", 0) == 1);
  std::set<std::string> listed;
  for (const auto& run : index["runs"]) {
    const std::string file = run["file"];
    CAPTURE(file);
    CHECK(run["id"].get<std::string>() + ".json" == file);
    CHECK(listed.insert(file).second);  // no duplicates
    if (fs::exists(measured_dir() / file)) {
      const json doc = read_json(measured_dir() / file);
      CHECK(run["timestamp_utc"] == doc["timestamp_utc"]);
      CHECK(run["primary"] == doc["summary"]["primary"]);
    }
  }
  std::set<std::string> present;
  for (const auto& file : measured_files()) present.insert(file.filename().string());
  CHECK(listed == present);
}

}  // namespace measured_data_test
