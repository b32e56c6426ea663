// SPDX-License-Identifier: MIT
#include "llmsizer/hub_repository.hpp"

#include <algorithm>
#include <cctype>

namespace llmsizer {
namespace {

/// One part of an id (hub_repository.hpp valid_repo_id).
bool valid_id_part(std::string_view part) {
  if (part.empty() || part.size() > 96 || part.front() == '-' || part.front() == '.' || part.back() == '-' || part.back() == '.') return false;
  return std::all_of(part.begin(), part.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return std::isalnum(u) || c == '-' || c == '_' || c == '.';
  });
}

}  // namespace

bool valid_repo_id(std::string_view id) {
  if (id.find("--") != std::string_view::npos || id.find("..") != std::string_view::npos) return false;
  const auto slash = id.find('/');
  if (slash == std::string_view::npos) return valid_id_part(id);
  return valid_id_part(id.substr(0, slash)) && valid_id_part(id.substr(slash + 1));
}

HubFailure hub_failure(int http_status, std::string_view error_code, bool gated, bool file_asked) {
  const bool denied = http_status == 401 || http_status == 403;
  if (error_code == "GatedRepo" || (denied && gated)) return HubFailure::gated;
  if (error_code == "RepoNotFound" || (!file_asked && (http_status == 401 || http_status == 404))) return HubFailure::repository_not_found;
  if (error_code == "RevisionNotFound") return HubFailure::revision_not_found;
  if (error_code == "EntryNotFound" || http_status == 404) return HubFailure::file_not_found;
  if (denied) return HubFailure::access_denied;
  return HubFailure::other;
}

const char* hub_failure_name(HubFailure failure) {
  switch (failure) {
    case HubFailure::gated: return "gated";
    case HubFailure::repository_not_found: return "repository_not_found";
    case HubFailure::revision_not_found: return "revision_not_found";
    case HubFailure::file_not_found: return "file_not_found";
    case HubFailure::access_denied: return "access_denied";
    case HubFailure::other: break;
  }
  return "other";
}

}  // namespace llmsizer
