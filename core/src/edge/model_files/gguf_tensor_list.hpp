// SPDX-License-Identifier: MIT
#pragma once
// A GGUF file's tensors in a request's model (`tensors`): written by describe_model_file, read by
// parse_model. One entry per tensor, [name, ggml type, [ne0, ne1, ...]], in file order, except
// that the same tensor of consecutive layers with the same type and shape is one entry
// [first layer's name, type, shape, last layer] ("blk.0.attn_q.weight" ... "blk.31.attn_q.weight":
// ["blk.0.attn_q.weight", "Q4_0", [4096, 4096], 31]). A Llama-3.1-8B Q4_0 file's 291 tensors are
// then 12 entries, so the model fits in a shared link. Read back, the tensors listed before the
// first layer's come first, then the layers' in layer number order (a file that lists blk.10 before
// blk.2, as one converted from name-sorted safetensors does, is read as blk.2 first), each layer's
// in the order of the entries, then the rest.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "llmsizer/edge/gguf.hpp"
#include "llmsizer/model.hpp"

namespace llmsizer::edge {

/// One entry of the list: a tensor (its first layer's, for a run) and the layers the run spans,
/// [first, last], or -1 for a tensor outside the layers.
struct GgufTensorRun {
  GgufTensor tensor;
  std::size_t suffix = 0;  ///< where the name's part after "blk.<n>." starts
  std::int64_t first = -1, last = -1;
};

/// A GGUF header's tensors as entries of the list, in file order (unchecked: see gguf_tensors_of_runs).
std::vector<GgufTensorRun> gguf_tensor_runs(const GgufHeader& header);
/// The entries as a request's model carries them.
nlohmann::json gguf_tensor_list_json(const std::vector<GgufTensorRun>& runs);

/** The tensors the entries list, in the order the list is read back, each with its bytes from its
 *  ggml type's block layout; what gguf_tensor_list gives for the entries' JSON. Throws InputError
 *  naming `field[i]` for an entry with no shape, a dimension below 1 or a row that is not a whole
 *  number of blocks. */
std::vector<GgufTensor> gguf_tensors_of_runs(std::vector<GgufTensorRun> runs, const std::string& field);

/** The tensors a request's `tensors` lists, each with its bytes from its ggml type's block layout.
 *  Throws InputError naming `field` (or `field[i]`) for a list that is not one, over
 *  kGgufMaxTensors tensors, an unknown ggml type, a shape of 0 or more than 4 dims, a row that is
 *  not a whole number of blocks, or a run whose name has no layer or ends before it starts. */
std::vector<GgufTensor> gguf_tensor_list(const nlohmann::json& list, const std::string& field);

}  // namespace llmsizer::edge
