// SPDX-License-Identifier: MIT
#pragma once
// The benchmarks' larger catalog (a catalog ten times today's should keep a whole-catalog
// recommendation under 10 ms in the page): the compiled-in catalog with every hardware entry
// repeated, the copies under new ids ("<id>~2", ...) and an instance's or laptop's GPU id renamed
// with it, so that each copy is a distinct entry with its own buy-or-rent pairs. The model presets
// and lookups by id are the compiled-in catalog's.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "llmsizer/catalog.hpp"

namespace llmsizer::bench {

class GrownCatalog final : public Catalog {
 public:
  GrownCatalog(const Catalog& base, int copies) : base_(base) {
    for (int copy = 1; copy <= copies; ++copy) {
      for (HardwareSpec h : base.all_hardware()) {
        if (copy > 1) {
          const std::string suffix = "~" + std::to_string(copy);
          h.id += suffix;
          h.name += suffix;
          if (!h.gpu_id.empty()) h.gpu_id += suffix;
        }
        hardware_.push_back(std::move(h));
      }
    }
  }
  std::optional<ModelSpec> model(std::string_view id) const override { return base_.model(id); }
  std::optional<HardwareSpec> hardware(std::string_view id) const override { return base_.hardware(id); }
  const std::vector<HardwareSpec>& all_hardware() const override { return hardware_; }
  std::vector<HardwareSpec> instances_with_gpu(std::string_view gpu_id) const override { return base_.instances_with_gpu(gpu_id); }

 private:
  const Catalog& base_;
  std::vector<HardwareSpec> hardware_;
};

}  // namespace llmsizer::bench
