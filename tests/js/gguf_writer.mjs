// SPDX-License-Identifier: MIT
// A small GGUF (v3) writer for the llama.cpp tests: metadata key/values, tensor infos, and tensor
// data that is all zeros. The data section is never written: the file is extended with ftruncate,
// so on Linux it is sparse (a 17 GB model takes a few MB of disk) and reads back as zeros.
// Format: ggml-org/ggml docs/gguf.md (magic "GGUF", version 3, little-endian, u64 counts and
// lengths, tensor data aligned to general.alignment = 32 by default).
import fs from "node:fs";

/** GGUF metadata value types (gguf.md `gguf_metadata_value_type`). */
export const GgufValue = Object.freeze({
  u8: 0, i8: 1, u16: 2, i16: 3, u32: 4, i32: 5, f32: 6, bool: 7, str: 8, arr: 9, u64: 10, i64: 11, f64: 12,
});

const kAlignment = 32;

class ByteSink {
  constructor() {
    this.chunks = [];
    this.length = 0;
  }
  push(buf) {
    this.chunks.push(buf);
    this.length += buf.length;
  }
  u32(v) { const b = Buffer.alloc(4); b.writeUInt32LE(v); this.push(b); }
  i32(v) { const b = Buffer.alloc(4); b.writeInt32LE(v); this.push(b); }
  u64(v) { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(v)); this.push(b); }
  i64(v) { const b = Buffer.alloc(8); b.writeBigInt64LE(BigInt(v)); this.push(b); }
  f32(v) { const b = Buffer.alloc(4); b.writeFloatLE(v); this.push(b); }
  f64(v) { const b = Buffer.alloc(8); b.writeDoubleLE(v); this.push(b); }
  str(s) {
    const bytes = Buffer.from(s, "utf8");
    this.u64(bytes.length);
    this.push(bytes);
  }
  scalar(type, v) {
    switch (type) {
      case GgufValue.u8: this.push(Buffer.from([v & 0xff])); break;
      case GgufValue.i8: { const b = Buffer.alloc(1); b.writeInt8(v); this.push(b); break; }
      case GgufValue.u16: { const b = Buffer.alloc(2); b.writeUInt16LE(v); this.push(b); break; }
      case GgufValue.i16: { const b = Buffer.alloc(2); b.writeInt16LE(v); this.push(b); break; }
      case GgufValue.u32: this.u32(v); break;
      case GgufValue.i32: this.i32(v); break;
      case GgufValue.f32: this.f32(v); break;
      case GgufValue.bool: this.push(Buffer.from([v ? 1 : 0])); break;
      case GgufValue.str: this.str(v); break;
      case GgufValue.u64: this.u64(v); break;
      case GgufValue.i64: this.i64(v); break;
      case GgufValue.f64: this.f64(v); break;
      default: throw new Error(`GGUF: unknown scalar type ${type}`);
    }
  }
  /** One metadata entry: {key, type, value} or, for arrays, {key, type: arr, element, value: [...]}. */
  keyValue({ key, type, element, value }) {
    this.str(key);
    this.u32(type);
    if (type === GgufValue.arr) {
      this.u32(element);
      this.u64(value.length);
      if (element === GgufValue.f32 || element === GgufValue.i32 || element === GgufValue.u32) {
        // Bulk-write numeric arrays (vocabularies have 10^5 entries).
        const b = Buffer.alloc(4 * value.length);
        for (let i = 0; i < value.length; ++i) {
          if (element === GgufValue.f32) b.writeFloatLE(value[i], 4 * i);
          else if (element === GgufValue.i32) b.writeInt32LE(value[i], 4 * i);
          else b.writeUInt32LE(value[i], 4 * i);
        }
        this.push(b);
      } else if (element === GgufValue.str) {
        // Bulk-write string arrays too (tokens and merges: 10^5 strings), in one buffer.
        const b = Buffer.alloc(value.reduce((n, v) => n + 8 + Buffer.byteLength(v, "utf8"), 0));
        let at = 0;
        for (const v of value) {
          const n = b.write(v, at + 8, "utf8");
          b.writeBigUInt64LE(BigInt(n), at);
          at += 8 + n;
        }
        this.push(b);
      } else {
        for (const v of value) this.scalar(element, v);
      }
    } else {
      this.scalar(type, value);
    }
  }
  buffer() { return Buffer.concat(this.chunks, this.length); }
}

const pad = (n, a) => Math.ceil(n / a) * a;

/**
 * A SentencePiece-style ("llama") vocabulary of `size` tokens: <unk>, <s>, </s>, <|endoftext|>,
 * the 256 byte tokens <0x00>..<0xFF> (so every byte has a token), then synthetic pieces. Scores
 * are zero. Token types (llama.h enum llama_token_type): 1 normal, 2 unknown, 3 control, 6 byte.
 * (<|endoftext|> is there because llama-vocab.cpp looks it up in models named "phi-3".)
 */
export function syntheticVocabulary(size) {
  if (size < 260 + 1) throw new Error(`vocabulary of ${size} tokens is too small (needs > 260)`);
  const tokens = ["<unk>", "<s>", "</s>", "<|endoftext|>"];
  const types = [2, 3, 3, 3];
  for (let b = 0; b < 256; ++b) {
    tokens.push(`<0x${b.toString(16).toUpperCase().padStart(2, "0")}>`);
    types.push(6);
  }
  for (let i = tokens.length; i < size; ++i) {
    tokens.push(`\u2581t${i}`);
    types.push(1);
  }
  return [
    { key: "tokenizer.ggml.model", type: GgufValue.str, value: "llama" },
    { key: "tokenizer.ggml.pre", type: GgufValue.str, value: "default" },
    { key: "tokenizer.ggml.tokens", type: GgufValue.arr, element: GgufValue.str, value: tokens },
    { key: "tokenizer.ggml.scores", type: GgufValue.arr, element: GgufValue.f32, value: new Array(size).fill(0) },
    { key: "tokenizer.ggml.token_type", type: GgufValue.arr, element: GgufValue.i32, value: types },
    { key: "tokenizer.ggml.unknown_token_id", type: GgufValue.u32, value: 0 },
    { key: "tokenizer.ggml.bos_token_id", type: GgufValue.u32, value: 1 },
    { key: "tokenizer.ggml.eos_token_id", type: GgufValue.u32, value: 2 },
  ];
}

/**
 * A GGUF header in memory: the magic, counts, `metadata` entries (see ByteSink.keyValue) and the
 * infos of `tensors` ({name, shape (ggml order, ne[0] first), type (ggml type id), bytes}), each
 * tensor's data offset aligned to 32. Returns {header: the bytes up to the last tensor info,
 * unpadded; dataStart: where the data section starts; dataBytes: its length}.
 */
export function ggufHeader({ metadata, tensors }) {
  const head = new ByteSink();
  head.push(Buffer.from("GGUF", "ascii"));
  head.u32(3);
  head.u64(tensors.length);
  head.u64(metadata.length);
  for (const kv of metadata) head.keyValue(kv);
  let offset = 0;
  for (const t of tensors) {
    head.str(t.name);
    head.u32(t.shape.length);
    for (const d of t.shape) head.u64(d);
    head.u32(t.type);
    head.u64(offset);
    offset = pad(offset + t.bytes, kAlignment);
  }
  const header = head.buffer();
  return { header, dataStart: pad(header.length, kAlignment), dataBytes: offset };
}

/**
 * Writes a GGUF file: its header (ggufHeader), and tensor data that are zeros, left as a hole of
 * the file. Returns the file size in bytes.
 */
export function writeGguf(path, { metadata, tensors }) {
  const { header, dataStart, dataBytes } = ggufHeader({ metadata, tensors });
  const size = dataStart + dataBytes;
  const fd = fs.openSync(path, "w");
  try {
    fs.writeSync(fd, header, 0, header.length, 0);
    fs.ftruncateSync(fd, size);
  } finally {
    fs.closeSync(fd);
  }
  return size;
}
