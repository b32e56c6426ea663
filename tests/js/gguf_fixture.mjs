// A GGUF header shaped like a real quantized checkpoint's, for the paired benchmark (bench/run.mjs) and header
// reader tests: Qwen2.5-7B-Instruct's architecture (qwen2: 28 layers, hidden 3,584,
// 28 query and 4 KV heads, MLP 18,944, vocabulary 152,064; its config.json on Hugging Face) with
// a 151,936-string tokenizer vocabulary, their token types and 68,000 merges: 3.9 MB of header, the
// size of the dropped file the issue timed, almost all of it tokenizer arrays that sizing does
// not need. Tensor infos: the 339 tensors of that model (per layer: two norms, q/k/v with biases,
// o, gate, up, down), 2-D weights as Q4_K and 1-D ones as F32, as llama.cpp's Q4_K_M stores most.
// Layout per ggml-org/ggml docs/gguf.md (v3, little-endian).
const T = { uint32: 4, int32: 5, float32: 6, string: 8, array: 9, uint64: 10 };
const GGML = { f32: 0, q4_k: 12 };

export const FIXTURE = {
  layers: 28, hidden: 3584, heads: 28, kvHeads: 4, ff: 18944, vocab: 152064, tokens: 151936, merges: 68000, context: 32768,
};

class Writer {
  constructor() { this.buf = Buffer.alloc(1 << 22); this.length = 0; }
  room(n) {
    if (this.length + n <= this.buf.length) return;
    const bigger = Buffer.alloc(Math.max(2 * this.buf.length, this.length + n));
    this.buf.copy(bigger, 0, 0, this.length);
    this.buf = bigger;
  }
  push(b) { this.room(b.length); b.copy(this.buf, this.length); this.length += b.length; }
  u32(v) { this.room(4); this.buf.writeUInt32LE(v, this.length); this.length += 4; }
  u64(v) { this.room(8); this.buf.writeBigUInt64LE(BigInt(v), this.length); this.length += 8; }
  f32(v) { this.room(4); this.buf.writeFloatLE(v, this.length); this.length += 4; }
  str(s) {
    const n = Buffer.byteLength(s, 'utf8');
    this.u64(n);
    this.room(n);
    this.length += this.buf.write(s, this.length, 'utf8');
  }
  bytes() { return this.buf.subarray(0, this.length); }
}

/** The token text of vocabulary entry `i`: byte-pair-like pieces of 1-12 bytes, 6.3 on average. */
function token(i) {
  const letters = 'etaoinshrdlucmfwypvbgkqjxz';
  let s = i % 7 === 0 ? '\u0120' : '';  // GPT-2's "Ġ" (a leading space), 2 bytes in UTF-8
  let n = i;
  const len = 1 + ((i * 2654435761) >>> 0) % 9;
  for (let k = 0; k < len; k++) { s += letters[n % 26]; n = Math.floor(n / 26) + k + 1; }
  return s;
}

/** The fixture's bytes: the header (metadata and tensor infos) padded to the 32-byte alignment,
 *  with no tensor data. The file size a reader is told is `fileSize` (the whole checkpoint's). */
export function ggufFixture() {
  const f = FIXTURE;
  const w = new Writer();
  const tensors = [];
  const add = (name, dims, type) => tensors.push({ name, dims, type });
  add('token_embd.weight', [f.hidden, f.vocab], GGML.q4_k);
  for (let l = 0; l < f.layers; l++) {
    const p = `blk.${l}.`;
    const kv = f.kvHeads * (f.hidden / f.heads);
    add(`${p}attn_norm.weight`, [f.hidden], GGML.f32);
    add(`${p}attn_q.weight`, [f.hidden, f.hidden], GGML.q4_k);
    add(`${p}attn_q.bias`, [f.hidden], GGML.f32);
    add(`${p}attn_k.weight`, [f.hidden, kv], GGML.q4_k);
    add(`${p}attn_k.bias`, [kv], GGML.f32);
    add(`${p}attn_v.weight`, [f.hidden, kv], GGML.q4_k);
    add(`${p}attn_v.bias`, [kv], GGML.f32);
    add(`${p}attn_output.weight`, [f.hidden, f.hidden], GGML.q4_k);
    add(`${p}ffn_norm.weight`, [f.hidden], GGML.f32);
    add(`${p}ffn_gate.weight`, [f.hidden, f.ff], GGML.q4_k);
    add(`${p}ffn_up.weight`, [f.hidden, f.ff], GGML.q4_k);
    add(`${p}ffn_down.weight`, [f.ff, f.hidden], GGML.q4_k);
  }
  add('output_norm.weight', [f.hidden], GGML.f32);
  add('output.weight', [f.hidden, f.vocab], GGML.q4_k);

  const kv = [];
  const scalar = (key, type, write) => kv.push({ key, type, write });
  scalar('general.architecture', T.string, () => w.str('qwen2'));
  scalar('general.name', T.string, () => w.str('Qwen2.5 7B Instruct'));
  scalar('general.file_type', T.uint32, () => w.u32(15));  // LLAMA_FTYPE_MOSTLY_Q4_K_M
  scalar('general.alignment', T.uint32, () => w.u32(32));
  scalar('qwen2.context_length', T.uint32, () => w.u32(f.context));
  scalar('qwen2.embedding_length', T.uint32, () => w.u32(f.hidden));
  scalar('qwen2.block_count', T.uint32, () => w.u32(f.layers));
  scalar('qwen2.feed_forward_length', T.uint32, () => w.u32(f.ff));
  scalar('qwen2.attention.head_count', T.uint32, () => w.u32(f.heads));
  scalar('qwen2.attention.head_count_kv', T.uint32, () => w.u32(f.kvHeads));
  scalar('qwen2.rope.freq_base', T.float32, () => w.f32(1e6));
  scalar('qwen2.attention.layer_norm_rms_epsilon', T.float32, () => w.f32(1e-6));
  scalar('tokenizer.ggml.model', T.string, () => w.str('gpt2'));
  scalar('tokenizer.ggml.pre', T.string, () => w.str('qwen2'));
  scalar('tokenizer.ggml.tokens', T.array, () => {
    w.u32(T.string); w.u64(f.tokens);
    for (let i = 0; i < f.tokens; i++) w.str(token(i));
  });
  scalar('tokenizer.ggml.token_type', T.array, () => {
    w.u32(T.int32); w.u64(f.tokens);
    const b = Buffer.alloc(4 * f.tokens);
    for (let i = 0; i < f.tokens; i++) b.writeInt32LE(i >= 151643 ? 3 : 1, 4 * i);
    w.push(b);
  });
  scalar('tokenizer.ggml.merges', T.array, () => {
    w.u32(T.string); w.u64(f.merges);
    for (let i = 0; i < f.merges; i++) w.str(`${token(i)} ${token(i + 1)}`.slice(0, 12));
  });
  scalar('tokenizer.ggml.eos_token_id', T.uint32, () => w.u32(151645));
  scalar('tokenizer.ggml.padding_token_id', T.uint32, () => w.u32(151643));

  w.push(Buffer.from('GGUF'));
  w.u32(3);
  w.u64(tensors.length);
  w.u64(kv.length);
  for (const e of kv) { w.str(e.key); w.u32(e.type); e.write(); }
  // Tensor data offsets: each tensor's bytes (Q4_K: 144 bytes per 256 elements; F32: 4 per element),
  // aligned to 32.
  let offset = 0n;
  for (const t of tensors) {
    w.str(t.name);
    w.u32(t.dims.length);
    for (const d of t.dims) w.u64(d);
    w.u32(t.type);
    w.u64(offset);
    const elements = t.dims.reduce((a, b) => a * BigInt(b), 1n);
    const bytes = t.type === GGML.q4_k ? (elements / 256n) * 144n : elements * 4n;
    offset += (bytes + 31n) / 32n * 32n;
  }
  const pad = (32 - (w.length % 32)) % 32;
  w.push(Buffer.alloc(pad));
  const header = w.bytes();
  return { bytes: header, fileSize: header.length + Number(offset), tensors: tensors.length };
}
