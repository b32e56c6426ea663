// SPDX-License-Identifier: MIT
// Every model preset (data/models/*.json): its schema, and its parameter count computed by the
// core against the count its publisher gives.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "llmsizer/api.hpp"
#include "llmsizer/embedded_data.hpp"
#include "test_support.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace presets_test {

using nlohmann::json;

namespace {

/// The preset files as stored in the source tree, by file stem.
std::map<std::string, json> preset_files() {
  std::map<std::string, json> out;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(LLMSIZER_DATA_DIR) + "/models")) {
    if (entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    out[entry.path().stem().string()] = json::parse(text.str());
  }
  return out;
}

std::vector<std::string> embedded_model_ids() {
  std::vector<std::string> ids;
  for (auto* d = llmsizer::embedded_documents_begin(); d != llmsizer::embedded_documents_end(); ++d) {
    if (d->kind == "models") ids.emplace_back(d->id);
  }
  return ids;
}

bool is_https_url(const std::string& s) { return s.rfind("https://", 0) == 0 && s.size() > 12 && s.find_first_of(" \t\n") == std::string::npos; }

/** The parts of a checkpoint its published count holds beyond `count_params().total` (the
 *  preset's `published_params_includes`): "mtp" — the multi-token-prediction layers the config
 *  declares; "mtp_embedding_copies" — copies of the embedding and output head stored in each of
 *  them (GLM-4.5/4.7: the Hub totals exceed the layers by exactly 2 × vocab × hidden each);
 *  "undeclared_mtp_layer" — one MTP layer the checkpoint ships and config.json does not declare
 *  (Qwen3-Next); "tied_lm_head_copy" — an output head stored although the config ties it. */
std::int64_t published_scope_count(const llmsizer::ModelSpec& m, const json& doc) {
  const llmsizer::ParamCounts c = llmsizer::count_params(m);
  std::int64_t total = c.total;
  for (const auto& part : doc.value("published_params_includes", json::array())) {
    const std::string what = part.get<std::string>();
    if (what == "mtp") total += c.mtp;
    if (what == "mtp_embedding_copies") total += static_cast<std::int64_t>(m.mtp_layers) * 2 * m.vocab_size * m.hidden_size;
    if (what == "undeclared_mtp_layer") {
      llmsizer::ModelSpec with_mtp = m;
      with_mtp.mtp_layers = 1;
      total += llmsizer::count_params(with_mtp).mtp;
    }
    if (what == "tied_lm_head_copy") total += m.vocab_size * m.hidden_size;
  }
  return total;
}

const std::set<std::string> kPublishedParts = {"mtp", "mtp_embedding_copies", "undeclared_mtp_layer", "tied_lm_head_copy"};

}  // namespace

TEST_CASE("Every preset file follows the preset schema", "[presets][schema]") {
  const std::set<std::string> required = {"id", "name", "family", "hf_repo", "source", "published_params",
                                          "published_params_source", "config"};
  const std::set<std::string> optional = {"published_params_note", "config_note", "published_params_exact",
                                          "published_params_includes"};
  const auto files = preset_files();
  REQUIRE(files.size() >= 150);
  std::set<std::string> ids;
  std::set<std::string> repos;
  for (const auto& [stem, doc] : files) {
    CAPTURE(stem);
    REQUIRE(doc.is_object());
    for (const auto& key : required) {
      CAPTURE(key);
      CHECK(doc.contains(key));
    }
    for (auto it = doc.begin(); it != doc.end(); ++it) {
      CAPTURE(it.key());
      CHECK((required.count(it.key()) + optional.count(it.key())) == 1);
    }
    if (!doc.contains("id") || !doc.contains("hf_repo")) continue;
    CHECK(doc["id"] == stem);
    for (const char* key : {"name", "family", "hf_repo", "source", "published_params_source"}) {
      CAPTURE(key);
      REQUIRE(doc[key].is_string());
      CHECK_FALSE(doc[key].get<std::string>().empty());
    }
    const std::string repo = doc["hf_repo"].get<std::string>();
    CHECK(std::count(repo.begin(), repo.end(), '/') == 1);
    CHECK(is_https_url(doc["source"].get<std::string>()));
    CHECK(doc["published_params_source"].get<std::string>().rfind("https://", 0) == 0);
    CHECK(doc["published_params"].is_number_integer());
    CHECK(doc["published_params"].get<std::int64_t>() > 0);
    CHECK(doc["config"].is_object());
    if (doc.contains("published_params_exact")) {
      // Only an inexact figure is flagged, and its note says why.
      CHECK(doc["published_params_exact"] == false);
      CHECK(doc.contains("published_params_note"));
    }
    for (const auto& part : doc.value("published_params_includes", json::array())) {
      CAPTURE(part);
      CHECK((part.is_string() && kPublishedParts.count(part.get<std::string>()) == 1));
    }
    CHECK(ids.insert(stem).second);
    CHECK(repos.insert(repo).second);
  }
}

TEST_CASE("The presets compiled into the core are exactly the files in data/models", "[presets]") {
  std::set<std::string> files;
  for (const auto& [stem, doc] : preset_files()) files.insert(stem);
  const auto ids = embedded_model_ids();
  CHECK(std::set<std::string>(ids.begin(), ids.end()) == files);
}

TEST_CASE("Every preset's computed parameter count matches its published count", "[presets][params]") {
  int exact = 0;
  int within = 0;
  for (const auto& id : embedded_model_ids()) {
    CAPTURE(id);
    const json doc = json::parse(std::string(llmsizer::find_embedded_document("models", id)->json));
    const std::int64_t published = doc.at("published_params").get<std::int64_t>();
    const std::int64_t computed = published_scope_count(test_support::preset(id), doc);
    CAPTURE(computed, published);
    // Within 0.5% for every preset ...
    CHECK(std::abs(static_cast<double>(computed - published)) <= 0.005 * static_cast<double>(published));
    // ... and exact unless the preset says its published figure is not (rounded by the publisher,
    // or a Hub total that also counts scale tensors), with the reason in its note.
    if (doc.value("published_params_exact", true)) {
      CHECK(computed == published);
      ++exact;
    } else {
      ++within;
    }
  }
  CHECK(exact >= 125);
  CHECK(exact + within >= 150);
}

TEST_CASE("The models listing holds every preset with computed and published counts and features", "[presets][api]") {
  const json listing = json::parse(llmsizer::list_models());
  REQUIRE_FALSE(listing.contains("error"));
  const auto ids = embedded_model_ids();
  REQUIRE(listing["models"].size() == ids.size());
  for (const auto& m : listing["models"]) {
    CAPTURE(m["id"]);
    CHECK(m["params"].is_number_integer());
    CHECK(m["published_params"].is_number_integer());
    CHECK(m["active_params"].get<std::int64_t>() <= m["params"].get<std::int64_t>());
    CHECK_FALSE(m["family"].get<std::string>().empty());
    CHECK(m["features"].is_array());
    CHECK(m["features"].size() >= 2);  // at least the attention kind and the embeddings
    CHECK(m["layers"].get<int>() > 0);
  }
}

TEST_CASE("Every preset estimates without error and names its features", "[presets][api]") {
  for (const auto& id : embedded_model_ids()) {
    CAPTURE(id);
    const json r = test_support::estimate({{"model", id}, {"input_tokens", 4096}, {"output_tokens", 512}});
    REQUIRE_FALSE(r.contains("error"));
    CHECK(r["model"]["features"].size() >= 2);
    CHECK(r["memory"]["parts"]["kv_cache"].get<std::int64_t>() > 0);
  }
}

}  // namespace presets_test
