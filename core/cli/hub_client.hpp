// SPDX-License-Identifier: MIT
#pragma once
// The CLI's reader of model repositories on the Hugging Face Hub (or a mirror), over libcurl: the
// only network code of the project, linked into the `llmsizer` command alone (the core stays pure;
// the page has its own reader, web/lib/hub.js). It asks the core which files to read
// (llmsizer::plan_repository), reads config.json and the shard index whole and only the header
// bytes of the weights files (HTTP Range, growing as inspect_model_file asks), and hands the
// headers back to the core (llmsizer::describe_repository_model).
#include <string>

#include <nlohmann/json.hpp>

namespace llmsizer::cli {

struct HubOptions {
  std::string endpoint;  ///< e.g. https://huggingface.co (no trailing slash)
  std::string token;     ///< sent as `Authorization: Bearer` when not empty; never written anywhere
  std::string revision = "main";
};

/** The endpoint the CLI uses: `flag` if given, else the environment's HF_ENDPOINT (the variable
 *  huggingface_hub reads, constants.py), else https://huggingface.co. */
std::string hub_endpoint(const std::string& flag);

/** What was read from a repository: `plan` (plan_repository's answer), `model`
 *  (describe_repository_model's answer), `requests` (how many HTTP requests) and `bytes_read`. Or
 *  {"error": {"field": "hf", "message": one sentence}} on any failure (network, HTTP status,
 *  truncated or unreadable header). */
nlohmann::ordered_json fetch_repository_model(const HubOptions& options, const std::string& repo_id, const std::string& file);

}  // namespace llmsizer::cli
