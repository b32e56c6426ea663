// SPDX-License-Identifier: MIT
#pragma once
/// The sizes an estimate can represent: every byte count is a signed 64-bit integer, so a model,
/// a context or a batch whose bytes would pass about 1e18 (a margin under 2^63 ≈ 9.2e18 for the sums
/// of several parts) is refused before anything is estimated, naming the field to lower.
#include <cstdint>

#include "llmsizer/model.hpp"

namespace llmsizer {

/// Largest byte count a part may reach: 1e18, a factor of 9 under INT64_MAX for the sums of parts.
constexpr double kLargestBytes = 1e18;

/** Throws InputError when `model` at `context` tokens × `batch` sequences would need more than
 *  kLargestBytes in one part, each bound taken generously (4-byte elements, every expert):
 *  - "model" when its weights would: layers × (4 h² attention + 3 h × width × experts MLP) + 2 h × vocab;
 *  - "input_tokens" when its KV cache would (2 × layers × KV width × tokens × batch × 4 B), or its
 *    activations (tokens × batch × (16 vocab + 24 width + 64 h) bytes) or attention scores
 *    (tokens² × batch × heads × 8 B) would. */
void check_byte_range(const ModelSpec& model, std::int64_t context, std::int64_t batch);

}  // namespace llmsizer
