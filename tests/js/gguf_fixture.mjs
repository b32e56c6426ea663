// A GGUF header shaped like a real quantized checkpoint's, for the paired benchmark (bench/run.mjs) and header
// reader tests: Qwen2.5-7B-Instruct's architecture (qwen2: 28 layers, hidden 3,584,
// 28 query and 4 KV heads, MLP 18,944, vocabulary 152,064; its config.json on Hugging Face) with
// a 151,936-string tokenizer vocabulary, their token types and 68,000 merges: 3.9 MB of header, the
// size of the dropped file the issue timed, almost all of it tokenizer arrays that sizing does
// not need. Tensor infos: the 339 tensors of that model (per layer: two norms, q/k/v with biases,
// o, gate, up, down), 2-D weights as Q4_K and 1-D ones as F32, as llama.cpp's Q4_K_M stores most.
// Encoded by gguf_writer.mjs (the llama.cpp tests' writer): GGUF v3, little-endian, 32-byte alignment.
import { GgufValue as V, ggufHeader } from './gguf_writer.mjs';

const GGML = { f32: 0, q4_k: 12 };

export const FIXTURE = {
  layers: 28, hidden: 3584, heads: 28, kvHeads: 4, ff: 18944, vocab: 152064, tokens: 151936, merges: 68000, context: 32768,
};

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
  const tensors = [];
  // Tensor data bytes: Q4_K 144 per 256 elements, F32 4 per element (ggml type_traits).
  const add = (name, shape, type) => {
    const elements = shape.reduce((n, d) => n * d, 1);
    tensors.push({ name, shape, type, bytes: type === GGML.q4_k ? (elements / 256) * 144 : elements * 4 });
  };
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

  const tokens = Array.from({ length: f.tokens }, (_, i) => token(i));
  const merges = Array.from({ length: f.merges }, (_, i) => `${token(i)} ${token(i + 1)}`.slice(0, 12));
  const metadata = [
    { key: 'general.architecture', type: V.str, value: 'qwen2' },
    { key: 'general.name', type: V.str, value: 'Qwen2.5 7B Instruct' },
    { key: 'general.file_type', type: V.u32, value: 15 },  // LLAMA_FTYPE_MOSTLY_Q4_K_M
    { key: 'general.alignment', type: V.u32, value: 32 },
    { key: 'qwen2.context_length', type: V.u32, value: f.context },
    { key: 'qwen2.embedding_length', type: V.u32, value: f.hidden },
    { key: 'qwen2.block_count', type: V.u32, value: f.layers },
    { key: 'qwen2.feed_forward_length', type: V.u32, value: f.ff },
    { key: 'qwen2.attention.head_count', type: V.u32, value: f.heads },
    { key: 'qwen2.attention.head_count_kv', type: V.u32, value: f.kvHeads },
    { key: 'qwen2.rope.freq_base', type: V.f32, value: 1e6 },
    { key: 'qwen2.attention.layer_norm_rms_epsilon', type: V.f32, value: 1e-6 },
    { key: 'tokenizer.ggml.model', type: V.str, value: 'gpt2' },
    { key: 'tokenizer.ggml.pre', type: V.str, value: 'qwen2' },
    { key: 'tokenizer.ggml.tokens', type: V.arr, element: V.str, value: tokens },
    { key: 'tokenizer.ggml.token_type', type: V.arr, element: V.i32, value: tokens.map((_, i) => (i >= 151643 ? 3 : 1)) },
    { key: 'tokenizer.ggml.merges', type: V.arr, element: V.str, value: merges },
    { key: 'tokenizer.ggml.eos_token_id', type: V.u32, value: 151645 },
    { key: 'tokenizer.ggml.padding_token_id', type: V.u32, value: 151643 },
  ];
  const { header, dataStart, dataBytes } = ggufHeader({ metadata, tensors });
  const bytes = Buffer.alloc(dataStart);  // the header, then zeros up to the alignment
  header.copy(bytes);
  return { bytes, fileSize: dataStart + dataBytes, tensors: tensors.length };
}
