// Writers of real-format model files for the page's import test (page_import.mjs): a GGUF v3 file
// (ggml docs/gguf.md: magic, version, tensor and metadata counts, key/value pairs, tensor infos,
// padding to general.alignment, tensor data) and a safetensors file (huggingface/safetensors
// README: 8-byte little-endian header length, JSON header, data). Only the layout is written here;
// the numbers a test expects are worked out by hand in the test.

/** GGUF metadata value types (gguf.md `enum gguf_metadata_value_type`). */
export const GGUF = { UINT32: 4, INT32: 5, FLOAT32: 6, STRING: 8, ARRAY: 9, UINT64: 10 };
/** ggml tensor types used here (ggml.h `enum ggml_type`). */
export const GGML = { F32: 0, F16: 1, Q4_K: 12 };

class Writer {
  constructor() { this.parts = []; this.length = 0; }
  bytes(u8) { this.parts.push(u8); this.length += u8.length; }
  u32(v) { const b = Buffer.alloc(4); b.writeUInt32LE(v); this.bytes(b); }
  u64(v) { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(v)); this.bytes(b); }
  f32(v) { const b = Buffer.alloc(4); b.writeFloatLE(v); this.bytes(b); }
  string(s) { const b = Buffer.from(s, 'utf8'); this.u64(b.length); this.bytes(b); }
  value(type, v) {
    if (type === GGUF.UINT32) this.u32(v);
    else if (type === GGUF.INT32) { const b = Buffer.alloc(4); b.writeInt32LE(v); this.bytes(b); }
    else if (type === GGUF.FLOAT32) this.f32(v);
    else if (type === GGUF.UINT64) this.u64(v);
    else if (type === GGUF.STRING) this.string(v);
    else if (type === GGUF.ARRAY) {
      this.u32(v.type);
      this.u64(v.items.length);
      for (const item of v.items) this.value(v.type, item);
    } else throw new Error(`GGUF value type ${type} is not written here`);
  }
  done() { return Buffer.concat(this.parts, this.length); }
}

/**
 * The header of a GGUF v3 file, padded to the alignment (32 bytes, gguf.md's default): what comes
 * before the tensor data. metadata: [[key, type, value]]; tensors: [{name, dims, type, offset}].
 */
export function ggufHeader(metadata, tensors, alignment = 32) {
  const w = new Writer();
  w.bytes(Buffer.from('GGUF', 'latin1'));
  w.u32(3);
  w.u64(tensors.length);
  w.u64(metadata.length);
  for (const [key, type, value] of metadata) {
    w.string(key);
    w.u32(type);
    w.value(type, value);
  }
  for (const t of tensors) {
    w.string(t.name);
    w.u32(t.dims.length);
    for (const d of t.dims) w.u64(d);
    w.u32(t.type);
    w.u64(t.offset);
  }
  const unpadded = w.length;
  const padded = Math.ceil(unpadded / alignment) * alignment;
  w.bytes(Buffer.alloc(padded - unpadded));
  return { bytes: w.done(), unpaddedBytes: unpadded };
}

/** A safetensors header: 8-byte length, then the JSON (padded with spaces to a multiple of 8, as the writer does). */
export function safetensorsHeader(tensors, metadata) {
  const header = {};
  if (metadata) header.__metadata__ = metadata;
  let offset = 0;
  for (const t of tensors) {
    header[t.name] = { dtype: t.dtype, shape: t.shape, data_offsets: [offset, offset + t.bytes] };
    offset += t.bytes;
  }
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - (json.length % 8)) % 8);
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(json.length));
  return { bytes: Buffer.concat([length, Buffer.from(json, 'utf8')]), dataBytes: offset };
}
