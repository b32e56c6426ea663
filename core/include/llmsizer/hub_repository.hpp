// SPDX-License-Identifier: MIT
#pragma once
/// The Hugging Face Hub's rules for reading a model repository that both readers share, the CLI's
/// (core/cli/hub_client.cpp, libcurl) and the page's (web/lib/hub.js, fetch): which repository ids
/// it accepts, and what a failed answer means. The readers do the I/O; which files to read is
/// api.hpp plan_repository, how much of each header is header_read.hpp.
#include <string_view>

namespace llmsizer {

/** A repository id as the Hub accepts it: `name` or `owner/name`; each part 1-96 letters, digits,
 *  `-`, `_` or `.`, neither starting nor ending with `-` or `.`; no `--` or `..` anywhere
 *  (huggingface_hub utils/_validators.py validate_repo_id: REPO_ID_REGEX
 *  `^(\b[\w\-.]+\b/)?\b[\w\-.]{1,96}\b$` and the `--`/`..` check). Keeps anything else, `../`
 *  included, out of the URLs the readers build. */
bool valid_repo_id(std::string_view id);

/// What a failed answer of the Hub means for the person reading.
enum class HubFailure {
  gated,                 ///< a gated model: accept its conditions, send a token with access
  repository_not_found,  ///< no such repository (or a private one the request may not see)
  revision_not_found,    ///< the repository has no such branch, tag or commit
  file_not_found,        ///< the repository has no such file
  access_denied,         ///< 401/403 for a file of a repository that is not gated
  other,                 ///< any other status: say the status
};

/** The failure an answer signals (huggingface_hub utils/_http.py hf_raise_for_status): its
 *  `X-Error-Code` first (GatedRepo, RepoNotFound, RevisionNotFound, EntryNotFound), else the
 *  status: 401/403 from a gated repository → gated; 401 or 404 for the listing (no token: the Hub
 *  answers 401 for a missing, private or gated repository) → repository_not_found; 404 for a file →
 *  file_not_found; other 401/403 → access_denied. `gated`: the listing said the repository is
 *  gated; `file_asked`: the request was for a file, not the listing. */
HubFailure hub_failure(int http_status, std::string_view error_code, bool gated, bool file_asked);

/// The failure's name as the page reads it: "gated", "repository_not_found", ... (the enumerator's).
const char* hub_failure_name(HubFailure failure);

}  // namespace llmsizer
