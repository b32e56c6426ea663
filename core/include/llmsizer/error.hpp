// SPDX-License-Identifier: MIT
#pragma once
/// Errors that cross the core's edge as data: which input field is wrong and what a person can do.
#include <exception>
#include <string>
#include <utility>

#include "llmsizer/message.hpp"

namespace llmsizer {

/** A request field that is missing, of the wrong type or out of range, raised only where the edge
 *  reads the request (core/src/edge/). `field` is the JSON path of the offending input
 *  (`training.lora_rank`, `model.config.hidden_size`); `message` is one sentence a person can act
 *  on, as data (message.hpp). The edge turns it into
 *  `{"error": {"field": ..., "message": <English>, "message_data": {...}}}`; nothing prints or aborts. */
class InputError : public std::exception {
 public:
  InputError(std::string field, Message message) : field_(std::move(field)), message_(std::move(message)) {}
  const std::string& field() const noexcept { return field_; }
  const Message& message() const noexcept { return message_; }
  /// The message's id (the English text is rendered at the edge).
  const char* what() const noexcept override { return message_.id.c_str(); }

 private:
  std::string field_;
  Message message_;
};

}  // namespace llmsizer
