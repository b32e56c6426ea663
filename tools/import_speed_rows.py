#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes data/validation/speed.json: the kind=speed rows of ../shared/validation/measurements.json
(each with its source) in the form tests/speed_validation_test.cpp reads: preset id, engine, weight
format, tokens, GPUs, catalog hardware id, measured tokens/s and whether the row is scored (with the
reason when not). Run by hand; the build and the tests never read ../shared."""
import json
import pathlib
import sys

PRESET = {
    "Qwen2-0.5B-Instruct": "qwen2-0.5b-instruct", "Qwen2-1.5B-Instruct": "qwen2-1.5b-instruct",
    "Qwen2-7B-Instruct": "qwen2-7b-instruct", "Qwen2-72B-Instruct": "qwen2-72b-instruct",
    "Qwen2-57B-A14B-Instruct": "qwen2-57b-a14b-instruct", "Qwen1.5-14B-Chat": "qwen1.5-14b-chat",
    "Qwen1.5-32B-Chat": "qwen1.5-32b-chat", "Qwen1.5-72B-Chat": "qwen1.5-72b-chat", "Qwen-72B": None,
}
FALLBACK = {"gptq-int4": "int4", "awq-int4": "int4", "gptq-int8": "int8", "bf16": "bf16"}
# The Qwen docs say "NVIDIA A100 80GB"; the Qwen(v1) README says A100-SXM4-80G. The SXM part is
# taken for all (2039 GB/s; the PCIe card has 1935 GB/s, 5% less).
HARDWARE = "nvidia-a100-80gb-sxm"
DEFINITION = ("output tokens / wall time of one generate call (prefill + decode), batch 1: "
              "QwenLM/Qwen2.5 examples/speed-benchmark/speed_benchmark_vllm.py collect_statistics(): out_length / time_cost")


def convert(row):
    s, m = row["setting"], row["measured"]
    out = {"id": row["id"], "source": row["source"], "source_section": row["source_section"],
           "model_ref": row["model_ref"], "model": PRESET.get(row["model_ref"]),
           "engine": s.get("framework"), "weights": s.get("precision"),
           "weights_fallback": FALLBACK.get(s.get("precision"), s.get("precision")),
           "input_tokens": s.get("input_len"), "output_tokens": s.get("output_len"),
           "batch": s.get("batch"), "gpus": s.get("gpu_count"), "gpu": s.get("gpu"), "hardware": HARDWARE,
           "enforce_eager": bool(s.get("vllm_engine_args", {}).get("enforce_eager", s.get("enforce_eager", False))),
           "definition": DEFINITION, "notes": row.get("notes", "")}
    out["measured_tokens_per_s"] = m.get("tokens_per_s", m.get("tokens_per_s_with_fa2"))
    if "tokens_per_s_with_fa2" in m:
        out["measured_note"] = "tokens_per_s_with_fa2 (flash_attention_2) used; without FA2: %s" % m.get("tokens_per_s_without_fa2")
    out["scored"] = True
    if "requests_per_s" in m:
        out["scored"] = False
        out["exclude_reason"] = "offline batched throughput of many prompts (benchmark_throughput.py), not batch-1 decode; batch not stated"
    elif out["model"] is None or out["input_tokens"] is None:
        out["scored"] = False
        out["exclude_reason"] = "speed averaged over encoded and generated tokens and input length not stated (Qwen README)"
    elif s.get("framework") == "transformers":
        out["definition"] = "output tokens / wall time of generate (prefill + decode), batch 1, device_map=auto over the GPUs (Qwen hf_infer.rst)"
    return out


def main():
    root = pathlib.Path(__file__).resolve().parent.parent
    src = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else root.parent / "shared/validation/measurements.json")
    rows = [convert(r) for r in json.loads(src.read_text()) if r.get("kind") == "speed"]
    doc = {"schema_version": 1,
           "source": "../shared/validation/measurements.json (kind=speed rows; each row keeps its own source URL)",
           "rows": rows}
    (root / "data/validation/speed.json").write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
