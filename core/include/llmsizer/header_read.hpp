// SPDX-License-Identifier: MIT
#pragma once
/// How much of a model file to read for its header: the one rule of the CLI (a local file, or a
/// Hugging Face file by HTTP Range) and the page (a File.slice, or a Hub file by Range). The caller
/// reads a prefix of the file, passes it to inspect_model_file (api.hpp) and, while the answer is a
/// truncation error with `needed_bytes` (file_header.hpp TruncatedInputError), asks this rule how
/// far to read next.
#include <cstdint>

namespace llmsizer {

/** The first read: 64 KiB, sized for a config.json (KBs) and the safetensors header of a shard
 *  (a JSON entry per tensor: tens of KB); a GGUF header, which holds the vocabulary (MBs), takes a
 *  few more reads. */
inline constexpr std::int64_t kFirstHeaderReadBytes = 64 * 1024;
/** The most read for a header: 256 MiB. Above the safetensors limit of 100,000,000 bytes
 *  (safetensors.hpp kSafetensorsMaxHeaderBytes, from safetensors/src/tensor.rs MAX_HEADER_SIZE) and
 *  far above the largest GGUF vocabularies (MBs); a longer "header" is a broken file. */
inline constexpr std::int64_t kMaxHeaderReadBytes = 256LL * 1024 * 1024;
/** The most read of a file read whole (a repository's listing, its config.json, a shard index):
 *  64 MiB, far above what they hold (KBs to a few MB); a longer one is not what it should be. */
inline constexpr std::int64_t kMaxWholeFileBytes = 64LL * 1024 * 1024;

/// What to do after an inspection of a prefix.
enum class HeaderReadStep {
  read,      ///< read up to `bytes` leading bytes, then inspect again
  answered,  ///< stop: the inspection's answer (a summary, or an error the file itself causes) is final
  too_long,  ///< stop: the header runs past kMaxHeaderReadBytes
};

struct HeaderRead {
  HeaderReadStep step = HeaderReadStep::read;
  std::int64_t bytes = 0;  ///< for `read`: the prefix length to have, always more than read so far
};

/** The next read of a file's header. `read_bytes`: how many leading bytes were inspected (0: none
 *  yet, the first read); `needed_bytes`: the inspection's `error.needed_bytes` (0 when it has
 *  none: a summary, or an error more bytes cannot cure); `file_size_bytes`: the whole file's
 *  size, or ≤ 0 when unknown.
 *  - first read: min(kFirstHeaderReadBytes, file size);
 *  - `answered` when the inspection asks for no more than it had, or the whole file was read;
 *  - `too_long` when kMaxHeaderReadBytes were read and the inspection wants more;
 *  - otherwise min(max(needed_bytes, 2 × read_bytes), kMaxHeaderReadBytes, file size): at least
 *    doubling, so a 4 MB GGUF header takes 7 reads from 64 KiB, not one per vocabulary chunk.
 *  A `read` always asks for more than `read_bytes`, and never past the cap, so a loop over this
 *  rule ends after at most 13 reads. */
HeaderRead next_header_read(std::int64_t read_bytes, std::int64_t needed_bytes, std::int64_t file_size_bytes);

/// The step's name as the page reads it: "read", "answered" or "too_long" (the enumerator's).
const char* header_read_step_name(HeaderReadStep step);

}  // namespace llmsizer
