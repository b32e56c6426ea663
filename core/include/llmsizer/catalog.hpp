// SPDX-License-Identifier: MIT
#pragma once
/// What the estimator needs from the compiled-in data: the model presets and the hardware catalog,
/// looked up by id. An interface, so the estimator stays pure: the edge implements it over the data
/// files (core/src/edge/catalog/embedded_catalog.cpp), tests can hand in their own.
#include <optional>
#include <string_view>
#include <vector>

#include "llmsizer/hardware.hpp"
#include "llmsizer/model.hpp"

namespace llmsizer {

class Catalog {
 public:
  virtual ~Catalog() = default;
  /// The preset `id` (lowercase), or none.
  virtual std::optional<ModelSpec> model(std::string_view id) const = 0;
  /// The hardware entry `id` (lowercase), or none.
  virtual std::optional<HardwareSpec> hardware(std::string_view id) const = 0;
  /// Every hardware entry, in catalog order (GPUs, then CPUs, instances and laptops, then probe files).
  virtual const std::vector<HardwareSpec>& all_hardware() const = 0;
  /// The cloud instances whose GPU is `gpu_id`, in catalog order: the buy-or-rent break-even of one
  /// owned GPU needs these and nothing else.
  virtual std::vector<HardwareSpec> instances_with_gpu(std::string_view gpu_id) const = 0;
};

}  // namespace llmsizer
