#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes data/hardware/<id>.json, one file per entry of the reference hardware catalog
(../shared/reference/hardware.json, described in hardware-sources.md). Run by hand when the
reference changes; the build and the tests never read ../shared.

Unit conversions (hardware-sources.md section 1):
- `memory_gb` of GPUs, `gpu_memory_gb_each` of instances, Apple `memory_options_gb` and CPU
  `max_memory_gb` are vendor "GB" that are binary sizes for DRAM parts (H100 "80 GB" is 80 GiB
  of DRAM; CUDA reports 79.2-81.1 GiB). They are stored as `*_bytes` = GB x 2^30, and the vendor
  number is kept in `*_gb_vendor`. Instance `ram_gib` is GiB already.
- Bandwidth stays in decimal GB/s (`*_gb_per_s`, 1e9 B/s); TFLOPS are dense, 1e12 FLOP/s.
Every other fact, `source`, `notes` and `derived_fields` is copied unchanged.
"""
import json
import pathlib
import sys

GIB = 1024 ** 3
KIND = {"gpus": "gpu", "cpus": "cpu", "instances": "instance", "laptops": "laptop"}
RENAME = {
    "memory_bandwidth_gbps": "memory_bandwidth_gb_per_s",
    "pcie_gbps_bidir": "pcie_gb_per_s_bidir",
    "nvlink_gbps_bidir": "nvlink_gb_per_s_bidir",
}


def gib_bytes(value):
    return None if value is None else int(round(value * GIB))


def convert(section, row):
    out = {"id": row["id"], "kind": KIND[section]}
    for key, value in row.items():
        if key in ("id", "kind"):
            continue
        if key == "memory_gb":
            out["memory_gb_vendor"] = value
            out["memory_bytes"] = gib_bytes(value)
        elif key == "max_memory_gb":
            out["max_memory_gb_vendor"] = value
            out["max_memory_bytes"] = gib_bytes(value)
        elif key == "gpu_memory_gb_each":
            out["gpu_memory_gb_vendor"] = value
            out["gpu_memory_bytes"] = gib_bytes(value)
        elif key == "gpu_vram_gb":
            out["gpu_memory_gb_vendor"] = value
            out["gpu_memory_bytes"] = gib_bytes(value)
        elif key == "memory_options_gb":
            out["memory_options_gb_vendor"] = value
            out["memory_options_bytes"] = None if value is None else [gib_bytes(v) for v in value]
        elif key == "ram_gib":
            out["ram_bytes"] = gib_bytes(value)
        elif section == "laptops" and key == "kind":
            continue
        else:
            out[RENAME.get(key, key)] = value
    if section == "laptops":
        out["laptop_kind"] = row["kind"]  # "apple-unified" or "pc-dgpu"
        if row.get("name") is None:
            out["name"] = row["id"]
    if section == "instances":
        out["name"] = f'{row["provider"]} {row["instance_type"]} ({row["gpu_count"]}x {row["gpu_model"]})'
    out["reference"] = "../shared/reference/hardware.json (" + section + "), units per hardware-sources.md"
    return out


def main():
    root = pathlib.Path(__file__).resolve().parent.parent
    reference = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else root.parent / "shared/reference/hardware.json")
    data = json.loads(reference.read_text())
    target = root / "data/hardware"
    target.mkdir(parents=True, exist_ok=True)
    for section in KIND:
        for row in data[section]:
            doc = convert(section, row)
            (target / f'{doc["id"]}.json').write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
