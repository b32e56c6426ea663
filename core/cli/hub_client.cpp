// SPDX-License-Identifier: MIT
// See hub_client.hpp. The Hub's URL layout and error signals, as huggingface_hub reads them:
// - `{endpoint}/api/models/{repo_id}?blobs=true`: the file listing with sizes (hf_api.py
//   model_info, files_metadata=True);
// - `{endpoint}/{repo_id}/resolve/{revision}/{filename}`: a file (constants.py
//   HUGGINGFACE_CO_URL_TEMPLATE; revision quoted with safe="", the file name with safe="/", as
//   file_download.py hf_hub_url does); large files answer a redirect to a CDN host, which honours
//   Range (huggingface/safetensors docs "Metadata Parsing": Range bytes=0-7, then the header);
// - errors: `X-Error-Code` RepoNotFound / RevisionNotFound / EntryNotFound / GatedRepo, and a 401
//   for a missing, private or gated repository when no token is sent (utils/_http.py
//   hf_raise_for_status); the body is JSON {"error": "..."}.
#include "hub_client.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "llmsizer/api.hpp"
#include "llmsizer/ascii.hpp"
#include "llmsizer/header_read.hpp"
#include "llmsizer/hub_repository.hpp"

namespace llmsizer::cli {
namespace {

using nlohmann::ordered_json;

struct Response {
  long status = 0;
  std::string body;
  std::map<std::string, std::string> headers;  // lower-case names, of the last response
  std::string network_error;                    // set when no HTTP answer came
};

/// A failure the user reads: one sentence.
struct Failure {
  std::string message;
};

/// Percent-encodes everything but unreserved characters (and '/' when `keep_slash`).
std::string quote(const std::string& s, bool keep_slash) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~' || (keep_slash && c == '/')) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

struct Transfer {
  Response* response;
  std::size_t limit;  // keep at most this many body bytes, then stop the transfer
  bool capped = false;
};

std::size_t on_body(char* data, std::size_t size, std::size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const std::size_t n = size * count;
  const std::size_t room = t->limit > t->response->body.size() ? t->limit - t->response->body.size() : 0;
  t->response->body.append(data, std::min(n, room));
  if (n > room) {
    t->capped = true;
    return 0;  // enough: a server that ignored Range must not send the whole file
  }
  return n;
}

std::size_t on_header(char* data, std::size_t size, std::size_t count, void* user) {
  auto* r = static_cast<Response*>(user);
  const std::string line(data, size * count);
  if (starts_with(line, "HTTP/")) {
    r->headers.clear();  // a new response (after a redirect): keep only the last one's headers
    return line.size();
  }
  const auto colon = line.find(':');
  if (colon != std::string::npos) {
    std::string value = line.substr(colon + 1);
    const auto first = value.find_first_not_of(" \t");
    const auto last = value.find_last_not_of(" \t\r\n");
    value = first == std::string::npos ? "" : value.substr(first, last - first + 1);
    r->headers[ascii_lower(line.substr(0, colon))] = value;
  }
  return line.size();
}

class Http {
 public:
  explicit Http(const HubOptions& o) : options_(o) {}

  /** GET `url` (redirects followed: the Hub sends large files to a CDN host), at most `limit`
   *  body bytes; `range` "a-b" asks for those bytes. */
  Response get(const std::string& url, const std::string& range, std::size_t limit) {
    ++requests;
    Response r;
    CURL* curl = curl_easy_init();
    if (!curl) {
      r.network_error = "libcurl could not start";
      return r;
    }
    Transfer transfer{&r, limit};
    curl_slist* headers = nullptr;
    // curl drops a custom Authorization header when a redirect leads to another host or port
    // (curl 7.83+, CURLOPT_HTTPHEADER docs), so the token never reaches the CDN.
    if (!options_.token.empty()) headers = curl_slist_append(headers, ("Authorization: Bearer " + options_.token).c_str());
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(curl, CURLOPT_MAXREDIRS, 5L);
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_USERAGENT, "llmsizer");
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 20L);
    curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);  // give up after 60 s without a byte
    curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, 60L);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    if (!range.empty()) curl_easy_setopt(curl, CURLOPT_RANGE, range.c_str());
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &transfer);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &r);
    const CURLcode code = curl_easy_perform(curl);
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &r.status);
    if (code != CURLE_OK && !(code == CURLE_WRITE_ERROR && transfer.capped)) {
      r.network_error = curl_easy_strerror(code);
      if (code != CURLE_COULDNT_RESOLVE_HOST && code != CURLE_COULDNT_CONNECT && code != CURLE_OPERATION_TIMEDOUT && r.status > 0) {
        r.network_error += " (HTTP " + std::to_string(r.status) + ")";
      }
    }
    bytes_read += static_cast<std::int64_t>(r.body.size());
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
    return r;
  }

  int requests = 0;
  std::int64_t bytes_read = 0;

 private:
  HubOptions options_;
};

std::string host_of(const std::string& endpoint) {
  const auto start = endpoint.find("://");
  const std::string rest = start == std::string::npos ? endpoint : endpoint.substr(start + 3);
  return rest.substr(0, rest.find('/'));
}

/// The server's own words from an error body ({"error": "..."}), if short.
std::string server_message(const Response& r) {
  const auto it = r.headers.find("x-error-message");
  if (it != r.headers.end() && !it->second.empty()) return it->second;
  const ordered_json body = ordered_json::parse(r.body, nullptr, false);
  if (body.is_object() && body.contains("error") && body["error"].is_string()) return body["error"].get<std::string>();
  return std::string();
}

/** One sentence for a failed request: what went wrong and what to do. `what`: the file, or empty
 *  for the listing. */
Failure failure(const Response& r, const HubOptions& o, const std::string& repo_id, const std::string& what, bool gated) {
  if (!r.network_error.empty() && r.status == 0) {
    return {"could not reach " + host_of(o.endpoint) + " (" + r.network_error +
            "): check the network (the estimate itself needs none; set HF_ENDPOINT for a mirror)"};
  }
  const auto code_it = r.headers.find("x-error-code");
  const std::string code = code_it == r.headers.end() ? "" : code_it->second;
  const std::string server = server_message(r);
  const std::string said = server.empty() ? "" : " (the server says: " + server + ")";
  switch (hub_failure(static_cast<int>(r.status), code, gated, !what.empty())) {
    case HubFailure::gated:
      return {repo_id + " is a gated model: accept its conditions at " + o.endpoint + "/" + repo_id + ", then give a token with access (" +
              (o.token.empty() ? "none was sent; put it in HF_TOKEN, or name another variable with --hf-token-env" : "the one sent has none") + ")" + said};
    case HubFailure::repository_not_found:
      return {repo_id + ": no such model repository on " + host_of(o.endpoint) +
              (o.token.empty() ? " (or it is private: give a token with HF_TOKEN)" : " (or the token has no access to it)") + said};
    case HubFailure::revision_not_found: return {repo_id + " has no revision " + o.revision + said};
    case HubFailure::file_not_found: return {repo_id + " has no file " + what + " at revision " + o.revision + said};
    case HubFailure::access_denied:
      return {repo_id + ": access denied (HTTP " + std::to_string(r.status) + ")" + (o.token.empty() ? "; give a token with HF_TOKEN" : "") + said};
    case HubFailure::other: break;
  }
  if (!r.network_error.empty()) return {"reading " + (what.empty() ? repo_id : what) + " failed: " + r.network_error};
  return {"reading " + (what.empty() ? "the listing of " + repo_id : what) + " failed: HTTP " + std::to_string(r.status) + said};
}

/// The whole file's size from `Content-Range: bytes a-b/total` (RFC 9110 14.4), or -1.
std::int64_t total_from_content_range(const Response& r) {
  const auto it = r.headers.find("content-range");
  if (it == r.headers.end()) return -1;
  const auto slash = it->second.rfind('/');
  if (slash == std::string::npos) return -1;
  try {
    return std::stoll(it->second.substr(slash + 1));
  } catch (const std::exception&) {
    return -1;  // "*": unknown
  }
}

class Reader {
 public:
  Reader(const HubOptions& o, std::string repo_id) : o_(o), http_(o), repo_(std::move(repo_id)) {}

  ordered_json listing() {
    std::string url = o_.endpoint + "/api/models/" + repo_;
    if (o_.revision != "main") url += "/revision/" + quote(o_.revision, false);
    const Response r = http_.get(url + "?blobs=true", "", static_cast<std::size_t>(kMaxWholeFileBytes));
    if (r.status != 200) throw failure(r, o_, repo_, "", false);
    const ordered_json j = ordered_json::parse(r.body, nullptr, false);
    if (j.is_discarded()) throw Failure{"the listing of " + repo_ + " from " + host_of(o_.endpoint) + " is not JSON"};
    return j;
  }

  std::string file_url(const std::string& file) const {
    return o_.endpoint + "/" + repo_ + "/resolve/" + quote(revision_, false) + "/" + quote(file, true);
  }

  /// A small file, whole (config.json, the shard index).
  std::string whole(const std::string& file) {
    const Response r = http_.get(file_url(file), "", static_cast<std::size_t>(kMaxWholeFileBytes));
    if (r.status != 200) throw failure(r, o_, repo_, file, gated_);
    return r.body;
  }

  /** The header of a weights file: its first bytes, read in growing ranges until the core has what
   *  it needs (header_read.hpp next_header_read over inspect_model_file's needed_bytes). Answers
   *  the core's summary of the header. */
  ordered_json header(const std::string& file, std::int64_t size) {
    std::string prefix;
    std::int64_t want = next_header_read(0, 0, size).bytes;
    for (;;) {  // next_header_read asks for more each round, up to its cap
      if (static_cast<std::int64_t>(prefix.size()) < want) {
        const std::string range = std::to_string(prefix.size()) + "-" + std::to_string(want - 1);
        const std::size_t asked = static_cast<std::size_t>(want) - prefix.size();
        const Response r = http_.get(file_url(file), range, asked);
        if (size < 0) size = total_from_content_range(r);
        if (r.status == 206) {
          prefix += r.body.substr(0, asked);
        } else if (r.status == 200) {  // Range ignored: the body starts at byte 0
          if (r.body.size() > prefix.size()) prefix += r.body.substr(prefix.size(), asked);
        } else if (r.status == 416) {
          throw Failure{file + ": the server has fewer bytes than the listing says (" + std::to_string(size) + "); the file is truncated"};
        } else {
          throw failure(r, o_, repo_, file, gated_);
        }
        if (!r.network_error.empty() && r.body.empty()) throw failure(r, o_, repo_, file, gated_);
        if (static_cast<std::int64_t>(prefix.size()) < want && (size < 0 || want <= size)) {
          throw Failure{file + ": the server sent " + std::to_string(prefix.size()) + " of the first " + std::to_string(want) +
                        " bytes; the file is truncated or the transfer was cut"};
        }
      }
      ordered_json summary = ordered_json::parse(llmsizer::inspect_model_file(prefix, static_cast<double>(size)));
      if (!summary.contains("error")) {
        summary.erase("tensors");  // every tensor's entry: not needed to size the model
        return summary;
      }
      const std::int64_t need = summary["error"].value("needed_bytes", std::int64_t{0});
      const HeaderRead next = next_header_read(static_cast<std::int64_t>(prefix.size()), need, size);
      if (next.step == HeaderReadStep::answered) {
        throw Failure{file + ": " + summary["error"].value("message", std::string("unreadable header"))};
      }
      if (next.step == HeaderReadStep::too_long) {
        throw Failure{file + ": the header is longer than " + std::to_string(kMaxHeaderReadBytes) + " bytes; not read"};
      }
      want = next.bytes;
    }
  }

  ordered_json run(const std::string& chosen) {
    const ordered_json list = listing();
    ordered_json plan = ordered_json::parse(llmsizer::plan_repository(list.dump(), chosen));
    if (plan.contains("error")) throw Failure{plan["error"].value("message", std::string())};
    gated_ = plan.value("gated", false);
    // Pin every file to the commit the listing describes (what huggingface_hub does with X-Repo-Commit).
    revision_ = plan.value("revision", std::string());
    if (revision_.empty()) revision_ = o_.revision;
    const ordered_json sizes = plan["sizes"];
    auto size_of = [&](const std::string& f) -> std::int64_t {
      return sizes.contains(f) && sizes[f].is_number_integer() ? sizes[f].get<std::int64_t>() : -1;
    };
    ordered_json parts = {{"name", plan.value("id", repo_)}, {"config", nullptr}, {"files", ordered_json::array()}};
    if (plan["config"].is_string()) {
      const std::string text = whole(plan["config"].get<std::string>());
      const ordered_json config = ordered_json::parse(text, nullptr, false);
      if (!config.is_object()) throw Failure{"config.json of " + repo_ + " is not a JSON object"};
      parts["config"] = config;
    }
    std::vector<std::string> files = plan["read"].get<std::vector<std::string>>();
    if (plan["index"].is_string()) {
      const std::string index_file = plan["index"].get<std::string>();
      const std::string text = whole(index_file);
      const ordered_json index = ordered_json::parse(llmsizer::inspect_model_file(text, static_cast<double>(text.size())));
      if (index.contains("error")) throw Failure{index_file + ": " + index["error"].value("message", std::string())};
      files = index["shards"].get<std::vector<std::string>>();
    }
    for (const auto& f : files) parts["files"].push_back(header(f, size_of(f)));
    ordered_json model = ordered_json::parse(llmsizer::describe_repository_model(parts.dump()));
    if (model.contains("error")) throw Failure{model["error"].value("field", std::string()) + ": " + model["error"].value("message", std::string())};
    return {{"plan", plan}, {"model", model}, {"requests", http_.requests}, {"bytes_read", http_.bytes_read}};
  }

 private:
  HubOptions o_;
  Http http_;
  std::string repo_;
  std::string revision_ = "main";
  bool gated_ = false;
};

}  // namespace

std::string hub_endpoint(const std::string& flag) {
  std::string e = flag;
  if (e.empty()) {
    const char* env = std::getenv("HF_ENDPOINT");
    e = env && *env ? env : "https://huggingface.co";
  }
  while (!e.empty() && e.back() == '/') e.pop_back();
  return e;
}

ordered_json fetch_repository_model(const HubOptions& options, const std::string& repo_id, const std::string& file) {
  if (!valid_repo_id(repo_id)) {
    return {{"error", {{"field", "hf"}, {"message", "must be a Hugging Face model id such as meta-llama/Llama-3.1-8B (owner/name: letters, digits, - _ .); got \"" + repo_id + "\""}}}};
  }
  if (!starts_with(options.endpoint, "http://") && !starts_with(options.endpoint, "https://")) {
    return {{"error", {{"field", "hf-endpoint"}, {"message", "must be an http:// or https:// URL; got \"" + options.endpoint + "\""}}}};
  }
  static const bool started = curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
  if (!started) return {{"error", {{"field", "hf"}, {"message", "libcurl could not start"}}}};
  try {
    Reader reader(options, repo_id);
    return reader.run(file);
  } catch (const Failure& f) {
    return {{"error", {{"field", "hf"}, {"message", f.message}}}};
  } catch (const std::exception& e) {
    return {{"error", {{"field", "hf"}, {"message", std::string("reading ") + repo_id + " failed: " + e.what()}}}};
  }
}

}  // namespace llmsizer::cli
