// SPDX-License-Identifier: MIT
// stable_sort_by (core/src/stable_order.hpp), which the core sorts with in place of std::stable_sort:
// the same order as std::stable_sort, ties in their original order, for items that are only moved.
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "../stable_order.hpp"  // core/src (the tests see core/src/edge)

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace stable_order_test {

struct Item {
  int key = 0;
  std::string label;
};

TEST_CASE("stable_sort_by orders as std::stable_sort does, ties kept in their order", "[stable_order]") {
  std::mt19937 random(11);
  for (int round = 0; round < 200; ++round) {
    std::vector<Item> items;
    const int count = static_cast<int>(random() % 60);
    for (int i = 0; i < count; ++i) items.push_back({static_cast<int>(random() % 7), std::to_string(i)});
    std::vector<Item> expected = items;
    const auto by_key = [](const Item& a, const Item& b) { return a.key < b.key; };
    std::stable_sort(expected.begin(), expected.end(), by_key);
    llmsizer::stable_sort_by(items, by_key);
    REQUIRE(items.size() == expected.size());
    for (std::size_t i = 0; i < items.size(); ++i) {
      CHECK(items[i].key == expected[i].key);
      CHECK(items[i].label == expected[i].label);
    }
  }
}

TEST_CASE("stable_sort_by moves items it cannot copy", "[stable_order]") {
  std::vector<std::unique_ptr<int>> items;
  for (const int v : {3, 1, 2, 1}) items.push_back(std::make_unique<int>(v));
  const int* first_one = items[1].get();
  llmsizer::stable_sort_by(items, [](const std::unique_ptr<int>& a, const std::unique_ptr<int>& b) { return *a < *b; });
  CHECK(*items[0] == 1);
  CHECK(items[0].get() == first_one);
  CHECK(*items[1] == 1);
  CHECK(*items[2] == 2);
  CHECK(*items[3] == 3);
}

}  // namespace stable_order_test
