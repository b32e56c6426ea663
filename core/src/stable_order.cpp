// SPDX-License-Identifier: MIT
#include "stable_order.hpp"

#include <algorithm>

namespace llmsizer {

std::vector<std::size_t> stable_order(std::size_t count, IndexOrder order) {
  std::vector<std::size_t> indices(count);
  for (std::size_t i = 0; i < count; ++i) indices[i] = i;
  std::stable_sort(indices.begin(), indices.end(), [order](std::size_t a, std::size_t b) { return order.before(order.context, a, b); });
  return indices;
}

}  // namespace llmsizer
