// SPDX-License-Identifier: MIT
// The stored weight format of a quantized checkpoint, from its `quantization_config`.
#include <algorithm>
#include <cmath>
#include <string>

#include "llmsizer/error.hpp"
#include "model_files/config_read.hpp"

namespace llmsizer::config_read {

/// The weight format a `quantization_config` describes, as a `weights` id of precision.hpp, or
/// "" when the catalog has no such format (then a note names it).
std::string stored_weights_format(const json& q, std::vector<Message>& warnings) {
  const std::string method = read_string(q, "quant_method");
  const auto bits_it = q.find("bits");
  const int bits = bits_it != q.end() && bits_it->is_number_integer() ? bits_it->get<int>() : 0;
  if (method == "awq" && (bits == 4 || bits == 0)) return "awq-int4";
  if (method == "gptq" && (bits == 4 || bits == 8 || bits == 3 || bits == 2)) return "gptq-int" + std::to_string(bits);
  if (method == "fp8" || method == "fbgemm_fp8") {
    const auto block = q.find("weight_block_size");
    return block != q.end() && block->is_array() && !block->empty() ? "fp8-block" : "fp8";
  }
  if (method == "mxfp4") return "mxfp4";
  if (method == "modelopt") {
    // TensorRT Model Optimizer's export: quant_algo at the top, or under "quantization" as its
    // hf_quant_config.json has it.
    std::string algo = read_string(q, "quant_algo");
    const auto nested = q.find("quantization");
    if (algo.empty() && nested != q.end() && nested->is_object()) algo = read_string(*nested, "quant_algo");
    if (algo == "NVFP4") return "nvfp4";
  }
  if (method == "bitsandbytes") {
    if (read_bool(q, "load_in_4bit", false)) return read_string(q, "bnb_4bit_quant_type") == "fp4" ? "fp4" : "nf4";
    if (read_bool(q, "load_in_8bit", false)) return "llm-int8";
  }
  if (method == "compressed-tensors") {
    // compressed-tensors: the first config group's weight scheme (llm-compressor FP8 models:
    // float, 8 bits, strategy "channel" / "tensor" / "block").
    const auto groups = q.find("config_groups");
    if (groups != q.end() && groups->is_object() && !groups->empty()) {
      const json& w = groups->begin()->value("weights", json::object());
      const std::string type = read_string(w, "type");
      const int wbits = w.contains("num_bits") && w["num_bits"].is_number_integer() ? w["num_bits"].get<int>() : 0;
      const std::string strategy = read_string(w, "strategy");
      if (type == "float" && wbits == 8) return strategy == "channel" ? "fp8-channel" : strategy == "block" ? "fp8-block" : "fp8";
      // llm-compressor's NVFP4 scheme: float, 4 bits, strategy tensor_group, group 16 (an E4M3
      // scale per 16 and a global scale per tensor).
      const int group = w.contains("group_size") && w["group_size"].is_number_integer() ? w["group_size"].get<int>() : 0;
      if (type == "float" && wbits == 4 && strategy == "tensor_group" && group == 16) return "nvfp4";
    }
  }
  warnings.push_back(Message("warning.config.quant_method_unknown").text("method", method));
  return "";
}

}  // namespace llmsizer::config_read
