// SPDX-License-Identifier: MIT
// The edge's streaming JSON writer (core/src/edge/answer/json_writer.hpp) writes what nlohmann's
// dump(-1, ' ', true, error_handler_t::replace) writes (ensure_ascii): the same string escapes, the same
// U+FFFD replacements of invalid UTF-8, the same doubles. nlohmann itself is the reference here.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "answer/json_writer.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace json_writer_test {

using llmsizer::edge::JsonWriter;

namespace {

/// The string as nlohmann dumps it: quoted, escaped, invalid UTF-8 replaced.
std::string nlohmann_string(const std::string& s) {
  return nlohmann::ordered_json(s).dump(-1, ' ', true, nlohmann::ordered_json::error_handler_t::replace);
}

std::string writer_string(const std::string& s) {
  JsonWriter w;
  w.value(s);
  return w.take();
}

std::string nlohmann_double(double d) { return nlohmann::ordered_json(d).dump(-1, ' ', true, nlohmann::ordered_json::error_handler_t::replace); }

std::string writer_double(double d) {
  JsonWriter w;
  w.value(d);
  return w.take();
}

}  // namespace

TEST_CASE("Every single byte is escaped or replaced as nlohmann does", "[json_writer]") {
  for (int b = 0; b < 256; ++b) {
    const std::string s(1, static_cast<char>(b));
    INFO("byte " << b);
    CHECK(writer_string(s) == nlohmann_string(s));
    // The byte between ASCII, where a rejected byte's re-reading matters.
    const std::string framed = "a" + s + "b" + s;
    CHECK(writer_string(framed) == nlohmann_string(framed));
  }
}

TEST_CASE("Every byte at every place of a long plain run is escaped as nlohmann does", "[json_writer]") {
  // The writer tests eight bytes at a time while all are plain ASCII: one byte that is not, at each of
  // the places of a 27-byte run (the word-at-a-time part, the byte-at-a-time tail, the boundaries),
  // for every byte value, and two such bytes in one run.
  const std::string run = "The quick brown fox jumps x";
  for (std::size_t place = 0; place < run.size(); ++place) {
    for (int b = 0; b < 256; ++b) {
      std::string s = run;
      s[place] = static_cast<char>(b);
      INFO("byte " << b << " at " << place);
      REQUIRE(writer_string(s) == nlohmann_string(s));
      std::string twice = s;
      twice[(place + 9) % run.size()] = static_cast<char>(255 - b);
      REQUIRE(writer_string(twice) == nlohmann_string(twice));
    }
  }
}

TEST_CASE("Valid, overlong, surrogate, truncated and broken UTF-8 is written as nlohmann does", "[json_writer]") {
  const std::vector<std::string> cases = {
      "",
      "plain ascii",
      "quote \" backslash \\ slash / controls \b\f\n\r\t \x01\x1f\x7f",
      "\xC3\xA9",                  // é, 2 bytes
      "\xE2\x80\xA6 \xE2\x80\x94",  // … —, 3 bytes
      "\xF0\x9F\x98\x80",          // 😀, 4 bytes
      "\xEF\xBF\xBD",              // U+FFFD itself
      "\xEF\xBB\xBF bom",
      "\xC0\x80",                  // overlong NUL
      "\xC1\xBF",                  // overlong
      "\xE0\x80\xAF",              // overlong '/'
      "\xE0\x9F\xBF",              // overlong
      "\xF0\x8F\xBF\xBF",          // overlong
      "\xED\xA0\x80",              // surrogate D800
      "\xED\xBF\xBF",              // surrogate DFFF
      "\xED\x9F\xBF",              // U+D7FF, valid
      "\xF4\x8F\xBF\xBF",          // U+10FFFF, valid
      "\xF4\x90\x80\x80",          // above U+10FFFF
      "\xF5\x80\x80\x80",
      "\xFF\xFE",
      "\xC3",                      // truncated at the end
      "ab\xE2\x80",
      "ab\xF0\x9F\x98",
      "\xC3(",                     // invalid continuation, then ASCII re-read
      "\xE2\x28\xA1",
      "\xE2\x82\x28",
      "\xF0\x28\x8C\xBC",
      "\xF0\x90\x28\xBC",
      "\xF0\x9F\x98\xC3\xA9",      // a start byte where a continuation was due, re-read as é
      "\xC3\xC3\xA9",
      "\x80\x80\xBF",              // lone continuations
      "\xE2\x80\xE2\x80\xA6\xE2",
      "\"\xC3\"",
      "\xC3\n",
  };
  for (const auto& s : cases) {
    INFO("case " << nlohmann::ordered_json(s).dump(-1, ' ', true, nlohmann::ordered_json::error_handler_t::replace));
    CHECK(writer_string(s) == nlohmann_string(s));
  }
}

TEST_CASE("Pseudo-random byte strings are escaped as nlohmann does", "[json_writer]") {
  std::mt19937 rng(20261204);
  // Bytes drawn so that UTF-8 lead and continuation bytes are frequent, plus uniform strings.
  const unsigned char interesting[] = {0x00, 0x08, 0x0A, 0x1F, 0x22, 0x5C, 0x41, 0x7F, 0x80, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2,
                                       0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF};
  for (int n = 0; n < 4000; ++n) {
    std::string s(rng() % 24, '\0');
    for (auto& c : s) {
      c = static_cast<char>(n % 2 == 0 ? interesting[rng() % sizeof interesting] : static_cast<unsigned char>(rng() % 256));
    }
    INFO("string " << n << ": " << nlohmann::ordered_json(s).dump(-1, ' ', true, nlohmann::ordered_json::error_handler_t::replace));
    REQUIRE(writer_string(s) == nlohmann_string(s));
  }
}

TEST_CASE("Text outside printable ASCII is written as \\u escapes, so every answer is ASCII", "[json_writer]") {
  // Worked out by hand from the code points (RFC 8259 §7: \uXXXX, UTF-16 surrogate pairs above U+FFFF):
  // × U+00D7 (C3 97), — U+2014 (E2 80 94), 😀 U+1F600 (F0 9F 98 80) = D83D DE00; DEL U+007F.
  CHECK(writer_string("7\xC3\x97 smaller") == "\"7\\u00d7 smaller\"");
  CHECK(writer_string("a \xE2\x80\x94 b") == "\"a \\u2014 b\"");
  CHECK(writer_string("\xF0\x9F\x98\x80") == "\"\\ud83d\\ude00\"");
  CHECK(writer_string("\x7F") == "\"\\u007f\"");
  // A broken sequence is one U+FFFD, escaped too.
  CHECK(writer_string("\xE2\x80") == "\"\\ufffd\"");
  // And a parser reads the same text back.
  CHECK(nlohmann::json::parse(writer_string("7\xC3\x97 \xE2\x80\x94 \xF0\x9F\x98\x80")).get<std::string>() == "7\xC3\x97 \xE2\x80\x94 \xF0\x9F\x98\x80");
}

TEST_CASE("Doubles print as nlohmann prints them, non-finite as null", "[json_writer]") {
  const double cases[] = {0.0,
                          -0.0,
                          1e-5,
                          7.0,
                          -7.0,
                          1e21,
                          1e15,
                          1e16,
                          123456789012345680.0,
                          0.1,
                          0.3,
                          2.0 / 3.0,
                          123456.789,
                          1e-4,
                          0.00012,
                          5e-324,
                          2.2250738585072009e-308,
                          std::numeric_limits<double>::min(),
                          std::numeric_limits<double>::max(),
                          std::numeric_limits<double>::lowest(),
                          std::numeric_limits<double>::quiet_NaN(),
                          std::numeric_limits<double>::infinity(),
                          -std::numeric_limits<double>::infinity()};
  for (const double d : cases) {
    INFO("double " << d);
    CHECK(writer_double(d) == nlohmann_double(d));
  }
  std::mt19937_64 rng(7);
  for (int n = 0; n < 2000; ++n) {
    double d = 0;
    const std::uint64_t bits = rng();
    static_assert(sizeof d == sizeof bits);
    std::memcpy(&d, &bits, sizeof d);
    INFO("bits " << bits);
    REQUIRE(writer_double(d) == nlohmann_double(d));
    const double rounded = std::round(static_cast<double>(rng() % 100000000) / 100.0) / 1000.0;
    REQUIRE(writer_double(rounded) == nlohmann_double(rounded));
  }
}

TEST_CASE("Whole-number doubles print as nlohmann prints them, at every magnitude", "[json_writer]") {
  // The writer prints whole numbers below 10^15 without Grisu2: each power of ten and its neighbours,
  // both signs, the limit and past it, and random whole numbers of every length.
  for (double p = 1; p <= 1e17; p *= 10) {
    for (const double d : {p, p - 1, p + 1, p * 9.99, p * 1.5, -p, -(p + 1), std::nextafter(p, 0.0), std::nextafter(p, 1e300)}) {
      INFO("double " << d);
      CHECK(writer_double(d) == nlohmann_double(d));
    }
  }
  for (const double d : {999999999999999.0, 1e15 - 0.5, 1e15, 1e15 + 1, 9007199254740992.0, 0.5, 1.0, -1.0, 0.999999999}) {
    INFO("double " << d);
    CHECK(writer_double(d) == nlohmann_double(d));
  }
  std::mt19937_64 rng(15);
  for (int n = 0; n < 5000; ++n) {
    const int digits = 1 + n % 16;
    const double whole = static_cast<double>(rng() % static_cast<std::uint64_t>(std::pow(10.0, digits)));
    const double d = n % 3 == 0 ? -whole : whole;
    INFO("double " << d);
    REQUIRE(writer_double(d) == nlohmann_double(d));
  }
}

TEST_CASE("Integers, booleans, null, nested objects and arrays are written as ordered_json dumps them", "[json_writer]") {
  nlohmann::ordered_json expected;
  expected["i"] = std::int64_t{-9223372036854775807LL - 1};
  expected["u"] = std::uint64_t{18446744073709551615ULL};
  expected["zero"] = 0;
  expected["t"] = true;
  expected["f"] = false;
  expected["n"] = nullptr;
  expected["f32"] = 0.1f;
  expected["empty_object"] = nlohmann::ordered_json::object();
  expected["empty_array"] = nlohmann::ordered_json::array();
  expected["list"] = {1, "two", 3.5, nullptr, {{"k\n", "v\xC3"}}, nlohmann::ordered_json::array({nlohmann::ordered_json::array()})};
  expected["names"] = std::vector<std::string>{"a", "b"};
  expected["spliced"] = nlohmann::ordered_json::parse(R"({"x":[1,2]})");

  JsonWriter w;
  w.begin_object();
  w.field("i", std::int64_t{-9223372036854775807LL - 1}).field("u", std::uint64_t{18446744073709551615ULL}).field("zero", 0);
  w.field("t", true).field("f", false).field("n", nullptr).field("f32", 0.1f);
  w.key("empty_object").begin_object().end_object();
  w.key("empty_array").begin_array().end_array();
  w.key("list").begin_array().value(1).value("two").value(3.5).value(nullptr);
  w.begin_object().field("k\n", "v\xC3").end_object();
  w.begin_array().begin_array().end_array().end_array();
  w.end_array();
  w.field("names", std::vector<std::string>{"a", "b"});
  w.key("spliced").raw(R"({"x":[1,2]})");
  w.end_object();
  CHECK(w.text() == expected.dump(-1, ' ', true, nlohmann::ordered_json::error_handler_t::replace));
}

TEST_CASE("A text far longer than the writer's first allocation is written whole", "[json_writer]") {
  // The buffer starts at 4 KiB and doubles (json_writer.hpp TextBuffer): 20,000 members of mixed
  // kinds (about 600 KB), with a broken UTF-8 string at the very end, which takes back what was
  // written of it after several growths, against nlohmann's dump of the same document.
  nlohmann::ordered_json expected = nlohmann::ordered_json::array();
  JsonWriter w;
  w.begin_array();
  for (int i = 0; i < 20000; ++i) {
    const std::string name = "member " + std::to_string(i) + " \"quoted\"\t";
    expected.push_back({{"name", name}, {"bytes", std::int64_t{1} << (i % 60)}, {"share", i / 7.0}});
    w.begin_object().field("name", name).field("bytes", std::int64_t{1} << (i % 60)).field("share", i / 7.0).end_object();
  }
  const std::string broken = std::string(5000, 'x') + "\xE2\x82";
  expected.push_back(broken);
  w.value(broken);
  w.end_array();
  const std::string reference = expected.dump(-1, ' ', true, nlohmann::ordered_json::error_handler_t::replace);
  REQUIRE(reference.size() > 500'000);
  CHECK(w.text() == reference);
  CHECK(w.take() == reference);
}

}  // namespace json_writer_test
