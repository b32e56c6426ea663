// Model-file import end to end, in headless Chromium: real-format files written here (a GGUF v3
// llama model with a 32,000-token vocabulary and 64 MiB of data; a Hugging Face safetensors file
// of 78 MB), given to the page through its file input and through a drop on its drop zone. Checks:
//  - the page shows the exact parameter count and weight bytes worked out by hand below, and the
//    estimate uses the core's own `request_model` for the file (inspectModelFile), byte for byte;
//  - the page reads only the header: every Blob/File read in the page is recorded (slice ranges,
//    arrayBuffer/text/stream, FileReader), and none reaches past twice the header (or the first
//    64 KiB slice), none reads the whole file;
//  - a truncated file and a garbage file show the core's error by the import field, and the model,
//    the other inputs and the result stay as they were.
// usage: node page_import.mjs WEB_DIR
import { closeSync, ftruncateSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checker, openBrowser, prerequisites } from './browser.mjs';
import { loadCore, loadPageCore } from './load_core.mjs';
import { finalChecks, screenshot, settled, text } from './page_helpers.mjs';
import { GGML, GGUF, ggufHeader, safetensorsHeader } from './page_model_files.mjs';

const webDir = process.argv[2];
const chromium = await prerequisites(webDir);
const core = await loadPageCore(webDir);
const filesCore = await loadCore(webDir, 'llmsizer-files');  // the module the page loads for a model file
const t = checker();
const dir = mkdtempSync(join(tmpdir(), 'llmsizer-import-'));
const MiB = 1024 * 1024;
const FIRST_READ = 64 * 1024;  // the page's first slice (core/include/llmsizer/header_read.hpp kFirstHeaderReadBytes)

/** Writes `head` then zeros up to `size` bytes (a sparse file: the data is never stored on disk). */
function writeFile(name, head, size) {
  const path = join(dir, name);
  const fd = openSync(path, 'w');
  writeSync(fd, head);
  ftruncateSync(fd, size);
  closeSync(fd);
  return path;
}

// ---------------------------------------------------------------- a GGUF v3 llama model
// 2 layers, width 256, 4 query heads and 2 KV heads of 64, MLP 768, vocabulary 32,000, untied output.
// ggml shapes are [ne0 (row), ne1]; Q4_K stores 256 weights in a 144-byte block (ggml-common.h
// block_q4_K: 2 fp16 scales + 12 bytes of sub-block scales + 128 bytes of 4-bit quants), F32 4 B.
const E = 256;
const FF = 768;
const VOCAB = 32000;
const ggufTensors = [
  ['token_embd.weight', [E, VOCAB], GGML.Q4_K], ['output_norm.weight', [E], GGML.F32], ['output.weight', [E, VOCAB], GGML.Q4_K],
];
for (let l = 0; l < 2; l++) {
  for (const [n, dims, type] of [['attn_norm', [E], GGML.F32], ['attn_q', [E, E], GGML.Q4_K], ['attn_k', [E, 128], GGML.Q4_K],
    ['attn_v', [E, 128], GGML.Q4_K], ['attn_output', [E, E], GGML.Q4_K], ['ffn_norm', [E], GGML.F32],
    ['ffn_gate', [E, FF], GGML.Q4_K], ['ffn_up', [E, FF], GGML.Q4_K], ['ffn_down', [FF, E], GGML.Q4_K]]) {
    ggufTensors.push([`blk.${l}.${n}.weight`, dims, type]);
  }
}
// By hand:
//   token_embd, output: 256 × 32,000 = 8,192,000 weights each; 32,000 rows × 1 block × 144 B = 4,608,000 B each
//   norms (5 of them):  256 weights, 1,024 B each
//   per layer: attn_q, attn_output 65,536 weights, 256 rows × 144 B = 36,864 B each;
//              attn_k, attn_v 32,768 weights, 128 × 144 = 18,432 B each;
//              ffn_gate, ffn_up 196,608 weights, 768 × 144 = 110,592 B each; ffn_down 196,608, 256 × 3 × 144 = 110,592 B
//     = 786,688 weights + 2 norms (512) = 786,944 weights; 442,368 B + 2,048 B = 444,416 B
//   parameters: 2 × 8,192,000 + 256 + 2 × 786,944 = 17,958,144
//   weight bytes: 2 × 4,608,000 + 1,024 + 2 × 444,416 = 10,105,856
const GGUF_PARAMS = 17958144;
const GGUF_WEIGHT_BYTES = 10105856;
const bytesOf = (dims, type) => {
  const n = dims.reduce((a, c) => a * c, 1);
  return type === GGML.F32 ? 4 * n : (n / 256) * 144;
};
let offset = 0;
const tensorInfos = ggufTensors.map(([name, dims, type]) => {
  const info = { name, dims, type, offset };
  offset += bytesOf(dims, type);  // every size is a multiple of 32 (the alignment): no padding between tensors
  return info;
});
t.check(offset === GGUF_WEIGHT_BYTES, `the test's GGUF tensors add up to the hand-worked ${GGUF_WEIGHT_BYTES} B (got ${offset})`);
const gguf = ggufHeader([
  ['general.architecture', GGUF.STRING, 'llama'],
  ['general.name', GGUF.STRING, 'Tiny Llama Import Test'],
  ['general.file_type', GGUF.UINT32, 15],  // llama.h LLAMA_FTYPE_MOSTLY_Q4_K_M
  ['llama.block_count', GGUF.UINT32, 2],
  ['llama.context_length', GGUF.UINT32, 4096],
  ['llama.embedding_length', GGUF.UINT32, E],
  ['llama.feed_forward_length', GGUF.UINT32, FF],
  ['llama.attention.head_count', GGUF.UINT32, 4],
  ['llama.attention.head_count_kv', GGUF.UINT32, 2],
  ['llama.attention.layer_norm_rms_epsilon', GGUF.FLOAT32, 1e-5],
  ['tokenizer.ggml.model', GGUF.STRING, 'llama'],
  ['tokenizer.ggml.tokens', GGUF.ARRAY, { type: GGUF.STRING, items: Array.from({ length: VOCAB }, (_, i) => `tok${i}`) }],
], tensorInfos);
const GGUF_SIZE = 64 * MiB;  // header, 10.1 MB of tensor data, zeros to 64 MiB
const ggufPath = writeFile('tiny-llama.Q4_K_M.gguf', gguf.bytes, GGUF_SIZE);

// ---------------------------------------------------------------- a safetensors model (BF16)
// Hugging Face llama naming, 2 layers, width 512, k/v projections 256 wide, MLP 1536, vocabulary 32,000.
const SE = 512;
const SF = 1536;
const st = (name, shape) => ({ name, dtype: 'BF16', shape, bytes: 2 * shape.reduce((a, c) => a * c, 1) });
const stTensors = [st('model.embed_tokens.weight', [VOCAB, SE])];
for (let l = 0; l < 2; l++) {
  const p = `model.layers.${l}.`;
  stTensors.push(st(`${p}input_layernorm.weight`, [SE]), st(`${p}self_attn.q_proj.weight`, [SE, SE]),
    st(`${p}self_attn.k_proj.weight`, [256, SE]), st(`${p}self_attn.v_proj.weight`, [256, SE]), st(`${p}self_attn.o_proj.weight`, [SE, SE]),
    st(`${p}post_attention_layernorm.weight`, [SE]), st(`${p}mlp.gate_proj.weight`, [SF, SE]), st(`${p}mlp.up_proj.weight`, [SF, SE]),
    st(`${p}mlp.down_proj.weight`, [SE, SF]));
}
stTensors.push(st('model.norm.weight', [SE]), st('lm_head.weight', [VOCAB, SE]));
// By hand: embed_tokens, lm_head 32,000 × 512 = 16,384,000 each; per layer 2 norms 1,024 + q, o 262,144 each
// + k, v 131,072 each + gate, up, down 786,432 each = 1,024 + 524,288 + 262,144 + 2,359,296 = 3,146,752;
// final norm 512. Parameters 2 × 16,384,000 + 2 × 3,146,752 + 512 = 39,062,016; BF16: × 2 B = 78,124,032 B.
const ST_PARAMS = 39062016;
const ST_WEIGHT_BYTES = 78124032;
const safetensors = safetensorsHeader(stTensors, { format: 'pt' });
t.check(safetensors.dataBytes === ST_WEIGHT_BYTES, `the test's safetensors tensors add up to ${ST_WEIGHT_BYTES} B`);

// ---------------------------------------------------------------- what the page reads
/** Runs in the page before its scripts: records every read of a Blob or File (which bytes of which file). */
function recordReads() {
  const reads = [];
  const origin = new WeakMap();  // a slice → {name, size, start} of the file it came from
  const clamp = (v, size, fallback) => {
    if (v === undefined) return fallback;
    const n = Math.trunc(Number(v)) || 0;
    return n < 0 ? Math.max(size + n, 0) : Math.min(n, size);
  };
  const slice = Blob.prototype.slice;
  Blob.prototype.slice = function (start, end, type) {
    const out = slice.call(this, start, end, type);
    const from = origin.get(this) || { name: this.name || '', size: this.size, start: 0 };
    const s = clamp(start, this.size, 0);
    origin.set(out, { name: from.name, size: from.size, start: from.start + s });
    return out;
  };
  const record = (blob, how) => {
    const o = origin.get(blob);
    reads.push(o ? { name: o.name, size: o.size, start: o.start, end: o.start + blob.size, how }
      : { name: blob.name || '', size: blob.size, start: 0, end: blob.size, how });
  };
  for (const m of ['arrayBuffer', 'text', 'stream', 'bytes']) {
    const f = Blob.prototype[m];
    if (f) Blob.prototype[m] = function (...a) { record(this, m); return f.apply(this, a); };
  }
  for (const m of ['readAsArrayBuffer', 'readAsText', 'readAsDataURL', 'readAsBinaryString']) {
    const f = FileReader.prototype[m];
    FileReader.prototype[m] = function (blob, ...a) { record(blob, m); return f.call(this, blob, ...a); };
  }
  window.__fileReads = reads;
}
const readsOf = async (page, name) => (await page.evaluate(() => window.__fileReads)).filter((r) => r.name === name);

/** The checks on the reads of one file: one run of bytes from its start, each read taking up where
 *  the one before ended (no byte read twice), none past `limit`, never the whole file. */
function checkReads(reads, { name, size, headerBytes }) {
  const limit = Math.max(FIRST_READ, 2 * headerBytes);
  const maxEnd = Math.max(0, ...reads.map((r) => r.end));
  t.check(reads.length > 0, `${name}: the page read the file through Blob/File`);
  t.check(reads.every((r, i) => r.start === (i === 0 ? 0 : reads[i - 1].end) && r.size === size),
    `${name}: the first read starts at byte 0 of the file, each next one where the last ended: ${JSON.stringify(reads)}`);
  t.check(maxEnd >= headerBytes, `${name}: the last read covers the ${headerBytes}-byte header (read to ${maxEnd})`);
  t.check(maxEnd <= limit, `${name}: no read goes past ${limit} bytes (max(64 KiB, 2 × header)); read to ${maxEnd} of ${size}`);
  t.check(reads.every((r) => r.end < size), `${name}: the whole ${size}-byte file is never read`);
  console.log(`${name}: ${reads.length} read(s), ranges ${reads.map((r) => `[${r.start}, ${r.end})`).join(' ')}; header ${headerBytes} B; file ${size} B`);
}

const b = await openBrowser(chromium, webDir);
try {
  const page = await b.newPage({ viewport: { width: 1280, height: 900 } });
  await page.addInitScript(recordReads);
  const filesModule = [];
  page.on('request', (r) => { if (r.url().endsWith('/llmsizer-files.wasm')) filesModule.push(r.url()); });
  await page.goto(b.url);
  await settled(page);
  // The module that reads model files is not the default page's: it is fetched once a file is dragged
  // over the page (app.js), ahead of the drop.
  t.check(filesModule.length === 0, 'the default page does not fetch the model files\' module');
  await page.evaluate(() => {
    const files = new DataTransfer();
    files.items.add(new File(['GGUF'], 'model.gguf'));
    document.body.dispatchEvent(new DragEvent('dragenter', { dataTransfer: files, bubbles: true }));
  });
  for (let i = 0; i < 100 && !filesModule.length; i++) await new Promise((r) => setTimeout(r, 50));
  t.check(filesModule.length === 1, `a file dragged over the page fetches the model files' module once (${filesModule.length})`);
  await page.click('#import summary');

  // ---------------------------------------------------------------- 1. GGUF through the file input
  await page.setInputFiles('#model-file', ggufPath);
  await page.waitForSelector('#import-status[data-params]', { state: 'attached' });
  await settled(page);
  const status = async (key) => page.getAttribute('#import-status', `data-${key}`);
  t.check((await status('params')) === String(GGUF_PARAMS), `GGUF: the page shows ${GGUF_PARAMS} parameters (got ${await status('params')})`);
  t.check((await status('weight-bytes')) === String(GGUF_WEIGHT_BYTES), `GGUF: the page shows ${GGUF_WEIGHT_BYTES} bytes of weights`);
  // A GGUF file is llama.cpp's (or Ollama's): the engine the core names first is chosen. The file's
  // bytes as stored are then read under the generic engine (llama.cpp pads and places each tensor).
  t.check((await page.inputValue('#engine')) === 'llama.cpp', `GGUF: the engine becomes llama.cpp (${await page.inputValue('#engine')})`);
  await page.selectOption('#engine', 'generic');
  await settled(page);
  const ggufStatus = await text(page, '#import-status');
  t.check(ggufStatus.includes('17,958,144') && ggufStatus.includes('10,105,856'), `GGUF: the exact counts are written out: ${ggufStatus}`);
  t.check((await page.getAttribute('[data-part="weights"]', 'data-bytes')) === String(GGUF_WEIGHT_BYTES),
    'GGUF: the estimate\'s weights are the file\'s stored bytes, exactly');
  t.check((await text(page, '#model-info')).startsWith('Tiny Llama Import Test'), `GGUF: the model is named from general.name: ${await text(page, '#model-info')}`);
  t.check((await page.inputValue('#weights')) === 'file', 'GGUF: the weights are "as stored in the file"');
  checkReads(await readsOf(page, 'tiny-llama.Q4_K_M.gguf'), { name: 'GGUF', size: GGUF_SIZE, headerBytes: gguf.unpaddedBytes });
  // The page sends the core's request_model as it came: the link carries it, and the total is the
  // core's answer for it (computed here with the same WASM module in Node).
  const inspected = JSON.parse(filesCore.inspectModelFile(gguf.bytes, GGUF_SIZE));
  const fromLink = JSON.parse(new URLSearchParams(new URL(page.url()).hash.slice(1)).get('file_model'));
  t.check(JSON.stringify(fromLink) === JSON.stringify(inspected.request_model), `GGUF: the page's model is the core's request_model: ${JSON.stringify(fromLink)}`);
  t.check(Array.isArray(inspected.engines) && inspected.engines[0] === 'llama.cpp', `GGUF: the core names the engines that load it (${inspected.engines})`);
  const expected = JSON.parse(core.estimate(JSON.stringify({ model: inspected.request_model, task: 'inference', gpus: 1, kv_cache: 'bf16',
    engine: 'generic', input_tokens: 1024, output_tokens: 1024, batch: 1 })));
  t.check((await page.getAttribute('#total', 'data-bytes')) === String(expected.memory.device_bytes), `GGUF: the total is the core's device_bytes (${expected.memory.device_bytes})`);
  // The link restores the imported model.
  const linked = await b.newPage({ viewport: { width: 1280, height: 900 } });
  await linked.goto(page.url());
  await settled(linked);
  t.check((await linked.getAttribute('[data-part="weights"]', 'data-bytes')) === String(GGUF_WEIGHT_BYTES), 'GGUF: a link to the import restores the file\'s model');
  await linked.context().close();
  await screenshot(page, 'page-1280-import-gguf');

  // ---------------------------------------------------------------- 2. safetensors dropped on the drop zone
  // The File is built in the page (header bytes, then 78 MB of zeros) and dropped with a DataTransfer.
  const stName = 'model-00001-of-00001.safetensors';
  await page.evaluate(async ({ header, dataBytes, name }) => {
    const bytes = Uint8Array.from(atob(header), (c) => c.charCodeAt(0));
    const file = new File([bytes, new Blob([new ArrayBuffer(dataBytes)])], name);
    const dt = new DataTransfer();
    dt.items.add(file);
    const zone = document.getElementById('drop-zone');
    zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, { header: safetensors.bytes.toString('base64'), dataBytes: safetensors.dataBytes, name: stName });
  await page.waitForSelector(`#import-status[data-params="${ST_PARAMS}"]`, { state: 'attached' });
  await settled(page);
  t.check((await status('weight-bytes')) === String(ST_WEIGHT_BYTES), `safetensors: the page shows ${ST_WEIGHT_BYTES} bytes of weights`);
  t.check((await page.getAttribute('[data-part="weights"]', 'data-bytes')) === String(ST_WEIGHT_BYTES), 'safetensors: the estimate\'s weights are the file\'s bytes');
  t.check((await text(page, '#model-info')).startsWith(stName), 'safetensors: a header without a name is shown under the file name');
  t.check((await text(page, '#import-status')).includes('num_attention_heads'), 'safetensors: the core\'s warning about what the header lacks is shown');
  checkReads(await readsOf(page, stName), { name: 'safetensors', size: safetensors.bytes.length + ST_WEIGHT_BYTES, headerBytes: safetensors.bytes.length });

  // ---------------------------------------------------------------- 3. broken files
  await page.fill('#input_tokens', '4096');
  await page.dispatchEvent('#input_tokens', 'input');
  await settled(page);
  const before = { total: await page.getAttribute('#total', 'data-bytes'), info: await text(page, '#model-info'), url: page.url() };
  const broken = [
    // The header stops inside the vocabulary: the core says the token array cannot fit.
    ['truncated.gguf', gguf.bytes.subarray(0, 100000), 'tokenizer.ggml.tokens'],
    // A whole header but no tensor data: an interrupted download.
    ['no-data.gguf', gguf.bytes, 'truncated'],
    ['garbage.gguf', Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 251)), 'not a safetensors file'],
  ];
  for (const [name, bytes, words] of broken) {
    await page.setInputFiles('#model-file', { name, mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) });
    await page.waitForSelector('#import-status.import-error', { state: 'visible' });
    const message = await text(page, '#import-status');
    t.check(message.startsWith('The file could not be read:') && message.includes(words), `${name}: a clear error by the import field: ${message}`);
    t.check((await page.getAttribute('#model-file', 'aria-invalid')) === 'true', `${name}: the file field is marked invalid`);
    t.check((await page.inputValue('#input_tokens')) === '4096' && (await page.inputValue('#weights')) === 'file', `${name}: the other inputs are kept`);
    t.check((await page.getAttribute('#total', 'data-bytes')) === before.total && (await text(page, '#model-info')) === before.info
      && page.url() === before.url, `${name}: the imported model and its result stay`);
    t.check(!(await page.$eval('#results', (e) => e.classList.contains('stale'))), `${name}: the result is not marked stale`);
  }
  await screenshot(page, 'page-1280-import-error');
  await page.setInputFiles('#model-file', ggufPath);
  await page.waitForSelector('#import-status[data-params]:not(.import-error)', { state: 'attached' });
  t.check((await page.getAttribute('#model-file', 'aria-invalid')) === null, 'a good file after a bad one clears the error');
  finalChecks(t, b);
} finally {
  await b.close();
  rmSync(dir, { recursive: true, force: true });
}
t.finish();
