// SPDX-License-Identifier: MIT
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include "llmsizer/error.hpp"
#include "llmsizer/message_text.hpp"

// An InputError's message is data (an id and its numbers); tests that match its text
// (CHECK_THROWS_WITH) see the English the response would carry.
CATCH_TRANSLATE_EXCEPTION(const llmsizer::InputError& e) { return llmsizer::edge::render_en(e.message()); }
