// SPDX-License-Identifier: MIT
#include "llmsizer/architecture.hpp"

#include <cstddef>
#include <iterator>

namespace llmsizer {
namespace {

/// kFamilies holds one row per Family, in the enum's order, so that a family's row is its index.
constexpr bool rows_in_enum_order() {
  for (std::size_t i = 0; i < std::size(kFamilies); ++i) {
    if (static_cast<std::size_t>(kFamilies[i].family) != i) return false;
  }
  return true;
}
static_assert(rows_in_enum_order(), "kFamilies: one row per Family, in the enum's order");
static_assert(std::size(kFamilies) == static_cast<std::size_t>(Family::ministral3) + 1, "kFamilies: a row for every Family");

}  // namespace

const FamilyTraits& family_traits(Family family) { return kFamilies[static_cast<std::size_t>(family)]; }

Family family_for_model_type(std::string_view model_type) {
  if (model_type.empty()) return Family::other;
  for (const auto& row : kFamilies) {
    for (std::string_view name : row.model_types) {
      if (name == model_type) return row.family;
    }
  }
  return Family::other;
}

Family family_for_gguf_architecture(std::string_view architecture) {
  if (architecture.empty()) return Family::other;
  for (const auto& row : kFamilies) {
    if (row.read_from_gguf && row.gguf_architecture == architecture) return row.family;
  }
  return Family::other;
}

VisionTower vision_tower_for(std::string_view model_type, Family family) {
  if (model_type.empty()) return family_traits(family).unnamed_vision_tower;
  for (const auto& row : kVisionTowers) {
    for (std::string_view name : row.model_types) {
      if (name == model_type) return row.tower;
    }
  }
  return VisionTower::none;
}

}  // namespace llmsizer
