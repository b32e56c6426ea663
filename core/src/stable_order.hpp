// SPDX-License-Identifier: MIT
#pragma once
// std::stable_sort through one instantiation of the library's stable sort for the whole core: each
// std::stable_sort of its own element type and comparison is a copy of the library's merge sort
// (bytes of WebAssembly each, where the page's download is measured: tests/js/page_size.mjs,
// bench/results/wasm-build-options.md). The items' indices are sorted instead, by a comparison reached through a
// function pointer, then the items moved into that order. A stable sort's result is fixed by the
// comparison and the original order, so it is the same order as std::stable_sort's, natively and in
// WebAssembly.
#include <cstddef>
#include <utility>
#include <vector>

namespace llmsizer {

/// Whether the item at index `a` goes before the one at `b`, as `before(context, a, b)`.
struct IndexOrder {
  bool (*before)(const void* context, std::size_t a, std::size_t b);
  const void* context;
};

/// The indices 0 .. count - 1 in the order std::stable_sort puts their items in under `order`.
std::vector<std::size_t> stable_order(std::size_t count, IndexOrder order);

/// std::stable_sort(items.begin(), items.end(), before), the same order.
template <typename T, typename Before>
void stable_sort_by(std::vector<T>& items, const Before& before) {
  struct Context {
    const std::vector<T>* items;
    const Before* before;
  };
  const Context context{&items, &before};
  const auto compare = [](const void* c, std::size_t a, std::size_t b) -> bool {
    const auto* ctx = static_cast<const Context*>(c);
    return (*ctx->before)((*ctx->items)[a], (*ctx->items)[b]);
  };
  const std::vector<std::size_t> order = stable_order(items.size(), IndexOrder{compare, &context});
  std::vector<T> sorted;
  sorted.reserve(items.size());
  for (const std::size_t i : order) sorted.push_back(std::move(items[i]));
  items = std::move(sorted);
}

}  // namespace llmsizer
