// SPDX-License-Identifier: MIT
// hub_repository.hpp: the repository ids the Hugging Face Hub accepts (huggingface_hub
// utils/_validators.py validate_repo_id) and what its failed answers mean (utils/_http.py
// hf_raise_for_status; the statuses the Hub sends, as tests/js/hub_server.mjs stands in for them).
#include <catch2/catch.hpp>

#include <string>

#include "llmsizer/hub_repository.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace hub_repository_test {

using llmsizer::HubFailure;
using llmsizer::hub_failure;
using llmsizer::valid_repo_id;

TEST_CASE("repository ids: owner/name or name, letters digits - _ ., at most 96 a part", "[hub_repository]") {
  CHECK(valid_repo_id("meta-llama/Llama-3.1-8B"));
  CHECK(valid_repo_id("Qwen/Qwen2.5-7B-Instruct"));
  CHECK(valid_repo_id("gpt2"));
  CHECK(valid_repo_id("_org/model_"));  // \b: a word character, `_` included, at each end
  CHECK(valid_repo_id("org/" + std::string(96, 'a')));
  CHECK_FALSE(valid_repo_id("org/" + std::string(97, 'a')));
  CHECK_FALSE(valid_repo_id(""));
  CHECK_FALSE(valid_repo_id("../etc/passwd"));
  CHECK_FALSE(valid_repo_id("org/model/extra"));
  CHECK_FALSE(valid_repo_id("org--x/model"));
  CHECK_FALSE(valid_repo_id("org/model..x"));
  CHECK_FALSE(valid_repo_id("-org/model"));
  CHECK_FALSE(valid_repo_id("org/model."));
  CHECK_FALSE(valid_repo_id("org/"));
  CHECK_FALSE(valid_repo_id("/model"));
  CHECK_FALSE(valid_repo_id("org/my model"));
  CHECK_FALSE(valid_repo_id("org/mod\xC3\xA9l"));  // é: not ASCII
}

TEST_CASE("a failed answer: the X-Error-Code first, else the status, the listing's gating and what was asked", "[hub_repository]") {
  struct Row {
    int status;
    const char* code;
    bool gated;
    bool file_asked;
    HubFailure expected;
  };
  const Row rows[] = {
      {401, "RepoNotFound", false, false, HubFailure::repository_not_found},  // no token
      {404, "RepoNotFound", false, false, HubFailure::repository_not_found},  // a token
      {404, "RepoNotFound", false, true, HubFailure::repository_not_found},
      {401, "", false, false, HubFailure::repository_not_found},  // the listing, no code
      {404, "", false, false, HubFailure::repository_not_found},
      {401, "GatedRepo", false, true, HubFailure::gated},  // no token
      {403, "GatedRepo", true, true, HubFailure::gated},   // a token without access
      {403, "", true, true, HubFailure::gated},            // the listing said gated
      {401, "", true, false, HubFailure::gated},
      {404, "RevisionNotFound", false, true, HubFailure::revision_not_found},
      {404, "EntryNotFound", false, true, HubFailure::file_not_found},
      {404, "", false, true, HubFailure::file_not_found},  // a CDN's 404
      {403, "", false, true, HubFailure::access_denied},   // a CDN's AccessDenied
      {401, "", false, true, HubFailure::access_denied},
      {500, "", false, true, HubFailure::other},
      {500, "", false, false, HubFailure::other},
      {429, "", true, false, HubFailure::other},
  };
  for (const Row& r : rows) {
    INFO(r.status << " '" << r.code << "' gated " << r.gated << " file " << r.file_asked);
    CHECK(hub_failure(r.status, r.code, r.gated, r.file_asked) == r.expected);
  }
}

TEST_CASE("each failure has the name the page reads", "[hub_repository]") {
  CHECK(std::string(llmsizer::hub_failure_name(HubFailure::gated)) == "gated");
  CHECK(std::string(llmsizer::hub_failure_name(HubFailure::repository_not_found)) == "repository_not_found");
  CHECK(std::string(llmsizer::hub_failure_name(HubFailure::revision_not_found)) == "revision_not_found");
  CHECK(std::string(llmsizer::hub_failure_name(HubFailure::file_not_found)) == "file_not_found");
  CHECK(std::string(llmsizer::hub_failure_name(HubFailure::access_denied)) == "access_denied");
  CHECK(std::string(llmsizer::hub_failure_name(HubFailure::other)) == "other");
}

}  // namespace hub_repository_test
