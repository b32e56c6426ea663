// SPDX-License-Identifier: MIT
#pragma once
/// Errors that cross the core's edge as data: which input field is wrong and what a person can do.
#include <stdexcept>
#include <string>

namespace llmsizer {

/** A request field that is missing, of the wrong type or out of range.
 *  `field` is the JSON path of the offending input (`training.lora_rank`, `model.config.hidden_size`);
 *  `what()` is one sentence a person can act on. The JSON edge (api.hpp) turns it into
 *  `{"error": {"field": ..., "message": ...}}`; nothing below the edge prints or aborts. */
class InputError : public std::runtime_error {
 public:
  InputError(std::string field, const std::string& message)
      : std::runtime_error(message), field_(std::move(field)) {}
  const std::string& field() const noexcept { return field_; }

 private:
  std::string field_;
};

}  // namespace llmsizer
