#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the small seed files of fuzz/corpus/{gguf,safetensors}: valid headers and one example of
each kind of broken header the readers reject. Run from this folder: python3 make_seeds.py
Layouts: ggml-org/ggml docs/gguf.md (v3, little-endian); huggingface/safetensors README."""
import json
import struct
from pathlib import Path

HERE = Path(__file__).resolve().parent


def u32(v): return struct.pack("<I", v)
def u64(v): return struct.pack("<Q", v)
def gstr(s): b = s.encode() if isinstance(s, str) else s; return u64(len(b)) + b
def kv_u32(k, v): return gstr(k) + u32(4) + u32(v)
def kv_str(k, v): return gstr(k) + u32(8) + gstr(v)
def tensor(name, dims, typ, off): return gstr(name) + u32(len(dims)) + b"".join(u64(d) for d in dims) + u32(typ) + u64(off)
def gguf(tensors, kvs, version=3): return b"GGUF" + u32(version) + u64(len(tensors)) + u64(len(kvs)) + b"".join(kvs) + b"".join(tensors)


def gguf_seeds():
    kvs = [kv_str("general.architecture", "llama"), kv_u32("llama.block_count", 1),
           kv_u32("llama.attention.head_count", 32), kv_u32("llama.attention.head_count_kv", 8),
           gstr("tokenizer.ggml.tokens") + u32(9) + u32(8) + u64(3) + gstr("<s>") + gstr("a") + gstr("b")]
    tensors = [tensor("blk.0.attn_q.weight", [4096, 4096], 12, 0),  # Q4_K
               tensor("token_embd.weight", [4096, 3], 0, 9437184)]  # F32
    valid = gguf(tensors, kvs)
    return {
        "valid_llama.gguf": valid,
        "valid_v2_empty.gguf": gguf([], [], version=2),
        "truncated.gguf": valid[: len(valid) // 2],
        "bad_magic.gguf": b"GGML" + valid[4:],
        "big_endian.gguf": b"GGUF" + struct.pack(">I", 3) + valid[8:],
        "huge_tensor_count.gguf": b"GGUF" + u32(3) + u64(1 << 63) + u64(0),
        "huge_string.gguf": gguf([], [gstr("k") + u32(8) + u64(1 << 62)]),
        "non_utf8_key.gguf": gguf([], [gstr(b"gen\xff") + u32(4) + u32(1)]),
        "five_dims.gguf": gguf([tensor("w", [1, 1, 1, 1, 1], 0, 0)], []),
        "dims_overflow.gguf": gguf([tensor("w", [1 << 32, 1 << 32], 0, 0)], []),
        "unknown_type.gguf": gguf([tensor("w", [32], 99, 0)], []),
        "overlap.gguf": gguf([tensor("a", [64], 0, 0), tensor("b", [64], 0, 128)], []),
        "nested_arrays.gguf": gguf([], [gstr("k") + u32(9) + u32(9) + u64(1) + u32(9) + u64(1) + u32(9) + u64(1) + u32(5) + u64(0)]),
    }


def st(header_obj_or_text, data=b""):
    text = header_obj_or_text if isinstance(header_obj_or_text, (bytes, str)) else json.dumps(header_obj_or_text)
    b = text.encode() if isinstance(text, str) else text
    return u64(len(b)) + b + data


def safetensors_seeds():
    valid = {"__metadata__": {"format": "pt"},
             "model.embed_tokens.weight": {"dtype": "BF16", "shape": [16, 8], "data_offsets": [0, 256]},
             "model.layers.0.self_attn.q_proj.weight": {"dtype": "F32", "shape": [8, 8], "data_offsets": [256, 512]}}
    lying = {"w": {"dtype": "F32", "shape": [2, 3], "data_offsets": [0, 16]}}
    overlap = {"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
               "b": {"dtype": "F32", "shape": [2], "data_offsets": [4, 12]}}
    gptq = {"l.qweight": {"dtype": "I32", "shape": [4, 32], "data_offsets": [0, 512]},
            "l.scales": {"dtype": "F16", "shape": [1, 32], "data_offsets": [512, 576]}}
    return {
        "valid.safetensors": st(valid, bytes(512)),
        "valid_header_only.safetensors": st(valid),
        "gptq.safetensors": st(gptq, bytes(576)),
        "truncated.safetensors": st(valid)[:40],
        "length_too_big.safetensors": u64(1 << 40) + b"{}",
        "not_json.safetensors": st('{"w": '),
        "non_utf8.safetensors": st(b'{"w\xff": {}}'),
        "lying_shape.safetensors": st(lying, bytes(16)),
        "overlap.safetensors": st(overlap, bytes(12)),
        "negative_dim.safetensors": st('{"w":{"dtype":"F32","shape":[-2],"data_offsets":[0,8]}}'),
        "unknown_dtype.safetensors": st('{"w":{"dtype":"Q4","shape":[2],"data_offsets":[0,1]}}'),
        "index.json.safetensors": u64(0) + b'{"metadata":{"total_size":768},"weight_map":{"a":"model-00001-of-00002.safetensors"}}',
    }


for folder, seeds in (("gguf", gguf_seeds()), ("safetensors", safetensors_seeds())):
    (HERE / folder).mkdir(exist_ok=True)
    for name, data in seeds.items():
        (HERE / folder / name).write_bytes(data)
