// A local stand-in for the Hugging Face Hub, for the CLI (cli_hub.mjs) and page (page_hub.mjs)
// tests: the Hub's URL layout and answers, on two local ports (the Hub, and a "CDN" it redirects
// large files to), with test repositories written here. What it reproduces, and where from:
// - GET /api/models/{repo_id}[?blobs=true]: {"id", "sha", "gated", "private", "siblings":
//   [{"rfilename", "size", "blobId", "lfs": {"size", "sha256", "pointerSize"}}]} (huggingface_hub
//   hf_api.py model_info: files_metadata=True sends blobs=true; RepoSibling reads rfilename, size,
//   blobId, lfs.size/sha256/pointerSize);
// - GET /{repo_id}/resolve/{revision}/{filename}: small (git) files answered here with
//   X-Repo-Commit; LFS files (.safetensors, .gguf) a 302 to the CDN host with X-Repo-Commit,
//   X-Linked-Size, X-Linked-Etag (huggingface_hub constants.py HUGGINGFACE_CO_URL_TEMPLATE and
//   HUGGINGFACE_HEADER_X_REPO_COMMIT / X_LINKED_SIZE / X_LINKED_ETAG; the CDN hosts are listed in
//   huggingface/hub-docs PR #2628, "downloading behind a proxy or firewall");
// - the CDN honours one Range `bytes=a-b` with 206 and Content-Range, 416 past the end (RFC 9110);
//   huggingface/safetensors docs "Metadata Parsing" read headers this way;
// - errors as huggingface_hub utils/_http.py hf_raise_for_status reads them: X-Error-Code
//   RepoNotFound (401 without a token: "401 is returned for private and gated repos if user is not
//   authenticated, missing repos"; 404 with one), EntryNotFound (404), RevisionNotFound (404),
//   GatedRepo (401 without a token, 403 with one that has no access; message "Access to model
//   {id} is restricted. You must have access to it and be authenticated to access it. Please log
//   in.", as quoted in NVIDIA/Isaac-GR00T issue #637), body {"error": "..."};
// - CORS as a browser needs it (Access-Control-Allow-Origin *, preflight for Authorization/Range).
// Every request is logged (`log`), so tests can check what was asked for and that no token
// reached the CDN.
import { createServer } from 'node:http';
import { createHash } from 'node:crypto';
import { ggufHeader, safetensorsHeader, GGUF } from './page_model_files.mjs';

/** ggml types and their block layout: ggml/include/ggml.h `enum ggml_type` ids, block bytes from
 *  ggml/src/ggml-common.h (block_q2_K 84 B / 256, block_q4_K 144 B / 256, block_q6_K 210 B / 256,
 *  block_q8_0 34 B / 32). */
export const TYPES = {
  F32: { id: 0, elements: 1, bytes: 4 }, F16: { id: 1, elements: 1, bytes: 2 }, Q8_0: { id: 8, elements: 32, bytes: 34 },
  Q2_K: { id: 10, elements: 256, bytes: 84 }, Q4_K: { id: 12, elements: 256, bytes: 144 }, Q6_K: { id: 14, elements: 256, bytes: 210 },
};
export const GOOD_TOKEN = 'hf_test_token_with_access';
export const NO_ACCESS_TOKEN = 'hf_test_token_without_access';

// ---------------------------------------------------------------- test repositories

/** A tiny Llama (hidden 64, 2 layers, 4 heads, 2 KV heads of 16, MLP 128, vocab 256, untied) in
 *  Hugging Face tensor names. Per layer: 2 norms 2 × 64, q/o 2 × 64×64, k/v 2 × 32×64, MLP
 *  3 × 128×64 = 36,992; embed and lm_head 2 × 256×64 = 32,768; final norm 64:
 *  106,816 parameters, 213,632 bytes in BF16. */
export const TINY = { params: 106_816, bf16Bytes: 213_632 };
export const tinyConfig = {
  architectures: ['LlamaForCausalLM'], model_type: 'llama', hidden_size: 64, num_hidden_layers: 2, num_attention_heads: 4,
  num_key_value_heads: 2, intermediate_size: 128, vocab_size: 256, max_position_embeddings: 4096, tie_word_embeddings: false,
  torch_dtype: 'bfloat16', rms_norm_eps: 1e-5,
};
function tinyTensors() {
  const t = (name, shape) => ({ name, dtype: 'BF16', shape, bytes: 2 * shape.reduce((a, b) => a * b, 1) });
  const layer = (i) => [
    t(`model.layers.${i}.input_layernorm.weight`, [64]), t(`model.layers.${i}.self_attn.q_proj.weight`, [64, 64]),
    t(`model.layers.${i}.self_attn.k_proj.weight`, [32, 64]), t(`model.layers.${i}.self_attn.v_proj.weight`, [32, 64]),
    t(`model.layers.${i}.self_attn.o_proj.weight`, [64, 64]), t(`model.layers.${i}.post_attention_layernorm.weight`, [64]),
    t(`model.layers.${i}.mlp.gate_proj.weight`, [128, 64]), t(`model.layers.${i}.mlp.up_proj.weight`, [128, 64]),
    t(`model.layers.${i}.mlp.down_proj.weight`, [64, 128]),
  ];
  return {
    first: [t('model.embed_tokens.weight', [256, 64]), ...layer(0)],
    second: [...layer(1), t('model.norm.weight', [64]), t('lm_head.weight', [256, 64])],
  };
}

/** A Llama 3.1 8B shape in GGUF (hidden 4096, 32 layers, 32 heads, 8 KV heads, MLP 14336, vocab
 *  128256; Meta's model card: 8.03B parameters): per layer q/o 2 × 4096², k/v 2 × 4096×1024, MLP
 *  3 × 4096×14336, 2 norms of 4096 = 218,112,000; embedding and output 2 × 4096×128256; output
 *  norm 4096: 8,030,261,248 parameters. `typeOf(name, dims)` picks each tensor's ggml type. The
 *  vocabulary (128,256 strings of 8 bytes, each after its 8-byte length: 2 MB) makes the header
 *  take several reads. */
export const LLAMA8B = { params: 8_030_261_248, layers: 32, hidden: 4096, vocab: 128_256 };
function llama8bTensors() {
  const tensors = [];
  const add = (name, dims) => tensors.push({ name, dims });
  add('token_embd.weight', [4096, 128256]);
  for (let i = 0; i < 32; i++) {
    add(`blk.${i}.attn_norm.weight`, [4096]);
    add(`blk.${i}.attn_q.weight`, [4096, 4096]);
    add(`blk.${i}.attn_k.weight`, [4096, 1024]);
    add(`blk.${i}.attn_v.weight`, [4096, 1024]);
    add(`blk.${i}.attn_output.weight`, [4096, 4096]);
    add(`blk.${i}.ffn_norm.weight`, [4096]);
    add(`blk.${i}.ffn_gate.weight`, [4096, 14336]);
    add(`blk.${i}.ffn_up.weight`, [4096, 14336]);
    add(`blk.${i}.ffn_down.weight`, [14336, 4096]);
  }
  add('output_norm.weight', [4096]);
  add('output.weight', [4096, 128256]);
  return tensors;
}
const LLAMA8B_TOKENS = Array.from({ length: 128256 }, (_, i) => `t${String(i).padStart(7, '0')}`);

/** llama.cpp file types (llama.h `enum llama_ftype`): the mix each fixture file uses, simplified
 *  to one type for 2-D tensors and one for the output (1-D tensors F32, as llama-quantize keeps). */
export const QUANTS = {
  Q2_K: { ftype: 10, main: 'Q2_K', output: 'Q6_K' },
  Q4_K_M: { ftype: 15, main: 'Q4_K', output: 'Q6_K' },
  Q8_0: { ftype: 7, main: 'Q8_0', output: 'Q8_0' },
  F16: { ftype: 1, main: 'F16', output: 'F16' },
  F32: { ftype: 0, main: 'F32', output: 'F32' },
};

/** The bytes of a tensor of `elements` in ggml type `type`. */
const tensorBytes = (type, elements) => (elements / TYPES[type].elements) * TYPES[type].bytes;

/** A GGUF file of the 8B shape in quantization `quant`: {header, size, weightBytes}, or, with
 *  `split` = [part, count], that part of a llama.cpp gguf-split set (tensors divided in order;
 *  split.no/split.count/split.tensors.count as tools/gguf-split writes them; the first part keeps
 *  the model's metadata). */
export function llama8bGguf(quant, split = null) {
  const q = QUANTS[quant];
  const all = llama8bTensors();
  const half = Math.ceil(all.length / 2);
  const mine = split ? (split[0] === 1 ? all.slice(0, half) : all.slice(half)) : all;
  let offset = 0;
  const tensors = [];
  let weightBytes = 0;
  for (const t of mine) {
    const elements = t.dims.reduce((a, b) => a * b, 1);
    const type = t.dims.length === 1 ? 'F32' : t.name === 'output.weight' ? q.output : q.main;
    const bytes = tensorBytes(type, elements);
    tensors.push({ name: t.name, dims: t.dims, type: TYPES[type].id, offset });
    offset += Math.ceil(bytes / 32) * 32;
    weightBytes += bytes;
  }
  const metadata = [];
  if (!split || split[0] === 1) {
    metadata.push(
      ['general.architecture', GGUF.STRING, 'llama'], ['general.name', GGUF.STRING, 'Llama 8B test'],
      ['general.file_type', GGUF.UINT32, q.ftype], ['llama.context_length', GGUF.UINT32, 131072],
      ['llama.embedding_length', GGUF.UINT32, 4096], ['llama.block_count', GGUF.UINT32, 32],
      ['llama.feed_forward_length', GGUF.UINT32, 14336], ['llama.attention.head_count', GGUF.UINT32, 32],
      ['llama.attention.head_count_kv', GGUF.UINT32, 8], ['llama.rope.dimension_count', GGUF.UINT32, 128],
      ['llama.vocab_size', GGUF.UINT32, 128256],
      ['tokenizer.ggml.model', GGUF.STRING, 'gpt2'],
      ['tokenizer.ggml.tokens', GGUF.ARRAY, { type: GGUF.STRING, items: LLAMA8B_TOKENS }],
    );
  }
  if (split) {
    metadata.push(['split.no', GGUF.UINT32, split[0] - 1], ['split.count', GGUF.UINT32, split[1]], ['split.tensors.count', GGUF.INT32, all.length]);
  }
  const { bytes } = ggufHeader(metadata, tensors);
  return { header: bytes, size: bytes.length + offset, weightBytes };
}

/** A repository: files {name: {bytes (what is stored: the header; the rest reads as zeros), size,
 *  lfs}}, `gated`, `missingFiles` (listed but not stored: a 404 EntryNotFound). */
function file(bytes, size = bytes.length, lfs = false) {
  return { bytes, size, lfs };
}
const jsonFile = (value) => file(Buffer.from(JSON.stringify(value, null, 2)));

export function buildRepos() {
  const repos = {};
  const { first, second } = tinyTensors();
  const single = safetensorsHeader([...first, ...second], { format: 'pt' });
  repos['test-org/tiny-llama'] = {
    files: {
      'README.md': file(Buffer.from('# tiny llama\n')), 'config.json': jsonFile(tinyConfig),
      'model.safetensors': file(single.bytes, single.bytes.length + single.dataBytes, true),
    },
  };
  const shard1 = safetensorsHeader(first, { format: 'pt' });
  const shard2 = safetensorsHeader(second, { format: 'pt' });
  const weightMap = {};
  for (const t of first) weightMap[t.name] = 'model-00001-of-00002.safetensors';
  for (const t of second) weightMap[t.name] = 'model-00002-of-00002.safetensors';
  repos['test-org/tiny-llama-sharded'] = {
    files: {
      'config.json': jsonFile(tinyConfig),
      'model.safetensors.index.json': jsonFile({ metadata: { total_size: TINY.bf16Bytes }, weight_map: weightMap }),
      'model-00001-of-00002.safetensors': file(shard1.bytes, shard1.bytes.length + shard1.dataBytes, true),
      'model-00002-of-00002.safetensors': file(shard2.bytes, shard2.bytes.length + shard2.dataBytes, true),
    },
  };
  const gguf = { 'README.md': file(Buffer.from('# GGUF quantizations of a Llama 8B shape\n')) };
  for (const quant of ['Q2_K', 'Q4_K_M', 'Q8_0', 'F16']) {
    const g = llama8bGguf(quant);
    gguf[`Llama-8B-Test-${quant}.gguf`] = file(g.header, g.size, true);
  }
  for (const part of [1, 2]) {
    const g = llama8bGguf('F32', [part, 2]);
    gguf[`F32/Llama-8B-Test-F32-0000${part}-of-00002.gguf`] = file(g.header, g.size, true);
  }
  const mmproj = ggufHeader([['general.architecture', GGUF.STRING, 'clip']], []);
  gguf['mmproj-Llama-8B-Test-F16.gguf'] = file(mmproj.bytes, mmproj.bytes.length, true);
  repos['test-org/Llama-8B-Test-GGUF'] = { files: gguf };
  repos['test-org/gated-llama'] = {
    gated: 'manual',
    files: { 'config.json': jsonFile(tinyConfig), 'model.safetensors': file(single.bytes, single.bytes.length + single.dataBytes, true) },
  };
  // A file listed but gone (deleted after the listing was read): its resolve answers 404.
  repos['test-org/vanishing-file'] = {
    files: { 'config.json': jsonFile(tinyConfig), 'model.safetensors': file(single.bytes, single.bytes.length + single.dataBytes, true) },
    missingFiles: ['model.safetensors'],
  };
  // Cut in the middle of the safetensors JSON header: the file is 200 bytes, its header says 1,200+.
  repos['test-org/truncated-safetensors'] = {
    files: { 'config.json': jsonFile(tinyConfig), 'model.safetensors': file(single.bytes.subarray(0, 200), 200, true) },
  };
  // Cut in the middle of the GGUF tensor infos (after the 2 MB vocabulary).
  const q4 = llama8bGguf('Q4_K_M');
  const cut = q4.header.length - 3000;
  repos['test-org/truncated-GGUF'] = { files: { 'Llama-8B-Test-Q4_K_M.gguf': file(q4.header.subarray(0, cut), cut, true) } };
  return repos;
}

// ---------------------------------------------------------------- the servers

const sha = (s) => createHash('sha1').update(s).digest('hex');
const COMMON = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'X-Error-Code, X-Error-Message, X-Repo-Commit, X-Linked-Size, X-Linked-Etag, Content-Range, Accept-Ranges, ETag',
};

function send(res, status, headers, body = '') {
  res.writeHead(status, { ...COMMON, ...headers });
  res.end(body);
}
function error(res, status, code, message) {
  send(res, status, { 'Content-Type': 'application/json; charset=utf-8', 'X-Error-Code': code, 'X-Error-Message': message },
    JSON.stringify({ error: message }));
}
function preflight(req, res) {
  send(res, 204, {
    'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
    'Access-Control-Allow-Headers': 'Authorization, Range, Content-Type',
    'Access-Control-Max-Age': '600',
  });
}

/** The bytes a..b of a stored file (zeros past what is stored). */
function slice(f, start, end) {
  const out = Buffer.alloc(end - start + 1);
  if (start < f.bytes.length) f.bytes.copy(out, 0, start, Math.min(f.bytes.length, end + 1));
  return out;
}

/** Starts the Hub (api + resolve) and its CDN on 127.0.0.1. Resolves to {hub, cdn (base URLs), log, repos, close()}. */
export async function startHub({ repos = buildRepos() } = {}) {
  const log = [];
  const listen = (server) => new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(`http://127.0.0.1:${server.address().port}`)));
  const cdnServer = createServer((req, res) => {
    const url = new URL(req.url, 'http://cdn');
    const entry = { host: 'cdn', method: req.method, path: url.pathname, range: req.headers.range || '', auth: Boolean(req.headers.authorization), referer: req.headers.referer || '', cookie: req.headers.cookie || '' };
    log.push(entry);
    if (req.method === 'OPTIONS') return preflight(req, res);
    const [, , repoKey, ...rest] = url.pathname.split('/');  // /blobs/<repo key>/<file>
    const repo = Object.values(repos).find((r) => r.key === repoKey);
    const name = decodeURIComponent(rest.join('/'));
    const f = repo && repo.files[name];
    if (!f || url.searchParams.get('X-Amz-Signature') !== sha(`${repoKey}/${name}`)) {
      return send(res, 403, { 'Content-Type': 'application/xml' }, '<Error><Code>AccessDenied</Code></Error>');
    }
    const m = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range || '');
    const headers = { 'Content-Type': 'application/octet-stream', 'Accept-Ranges': 'bytes', ETag: `"${sha(name)}"` };
    if (!m) {
      entry.bytes = f.size;
      res.writeHead(200, { ...COMMON, ...headers, 'Content-Length': String(f.size) });
      // Whole-file reads are what the clients must never do for weights: send only the stored part
      // and stop (the test fails on the byte count logged anyway).
      res.end(f.bytes);
      return undefined;
    }
    const start = Number(m[1]);
    const end = Math.min(m[2] === '' ? f.size - 1 : Number(m[2]), f.size - 1);
    if (start >= f.size || start > end) {
      return send(res, 416, { 'Content-Range': `bytes */${f.size}` });
    }
    entry.bytes = end - start + 1;
    return send(res, 206, { ...headers, 'Content-Range': `bytes ${start}-${end}/${f.size}`, 'Content-Length': String(end - start + 1) }, slice(f, start, end));
  });
  const cdn = await listen(cdnServer);

  const hubServer = createServer((req, res) => {
    const url = new URL(req.url, 'http://hub');
    const token = (req.headers.authorization || '').replace(/^Bearer\s+/i, '');
    const entry = { host: 'hub', method: req.method, path: url.pathname, search: url.search, range: req.headers.range || '', auth: Boolean(token), referer: req.headers.referer || '', cookie: req.headers.cookie || '' };
    log.push(entry);
    if (req.method === 'OPTIONS') return preflight(req, res);
    const path = decodeURIComponent(url.pathname);
    const api = /^\/api\/models\/([^/]+\/[^/]+|[^/]+)(?:\/revision\/([^/]+))?$/.exec(path);
    if (api) {
      const [, id, revision] = api;
      const repo = repos[id];
      if (!repo) return error(res, token ? 404 : 401, 'RepoNotFound', 'Repository not found');
      if (revision && revision !== 'main' && revision !== repo.sha) return error(res, 404, 'RevisionNotFound', 'Invalid rev id');
      const blobs = url.searchParams.get('blobs') === 'true';
      const siblings = Object.entries(repo.files).map(([rfilename, f]) => {
        const s = { rfilename };
        if (blobs) {
          s.size = f.lfs ? 134 : f.size;  // an LFS file's git blob is its pointer
          s.blobId = sha(`blob ${rfilename}`);
          if (f.lfs) s.lfs = { size: f.size, sha256: createHash('sha256').update(rfilename).digest('hex'), pointerSize: 134 };
        }
        return s;
      });
      return send(res, 200, { 'Content-Type': 'application/json; charset=utf-8' }, JSON.stringify({
        _id: repo.key, id, modelId: id, author: id.split('/')[0], sha: repo.sha, private: false, gated: repo.gated || false,
        disabled: false, tags: [], siblings,
      }));
    }
    const resolve = /^\/([^/]+\/[^/]+|[^/]+)\/resolve\/([^/]+)\/(.+)$/.exec(path);
    if (!resolve) return error(res, 404, 'NotFound', 'Not Found');
    const [, id, revision, name] = resolve;
    const repo = repos[id];
    if (!repo) return error(res, token ? 404 : 401, 'RepoNotFound', 'Repository not found');
    if (revision !== 'main' && revision !== repo.sha) return error(res, 404, 'RevisionNotFound', 'Invalid rev id');
    if (repo.gated) {
      if (!token) return error(res, 401, 'GatedRepo', `Access to model ${id} is restricted. You must have access to it and be authenticated to access it. Please log in.`);
      if (token !== GOOD_TOKEN) return error(res, 403, 'GatedRepo', `Access to model ${id} is restricted and you are not in the authorized list. Visit https://huggingface.co/${id} to ask for access.`);
    }
    const f = repo.files[name];
    if (!f || (repo.missingFiles || []).includes(name)) return error(res, 404, 'EntryNotFound', 'Entry not found');
    const common = { 'X-Repo-Commit': repo.sha, ETag: `"${sha(name)}"` };
    if (f.lfs) {
      const location = `${cdn}/blobs/${repo.key}/${encodeURIComponent(name)}?X-Amz-Signature=${sha(`${repo.key}/${name}`)}`;
      return send(res, 302, { ...common, Location: location, 'X-Linked-Size': String(f.size), 'X-Linked-Etag': `"${sha(name)}"` });
    }
    const m = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range || '');
    if (m) {
      const start = Number(m[1]);
      const end = Math.min(m[2] === '' ? f.size - 1 : Number(m[2]), f.size - 1);
      return send(res, 206, { ...common, 'Content-Range': `bytes ${start}-${end}/${f.size}` }, slice(f, start, end));
    }
    return send(res, 200, { ...common, 'Content-Type': name.endsWith('.json') ? 'application/json' : 'text/plain; charset=utf-8' }, f.bytes);
  });
  for (const [id, repo] of Object.entries(repos)) {
    repo.sha = sha(`commit ${id}`);
    repo.key = sha(`repo ${id}`).slice(0, 16);
  }
  const hub = await listen(hubServer);
  return {
    hub, cdn, log, repos,
    close: () => Promise.all([hubServer, cdnServer].map((s) => new Promise((ok) => { s.closeAllConnections?.(); s.close(ok); }))),
  };
}

/** Bytes the CDN sent for each file (path → bytes), from the log. */
export function bytesServed(log) {
  const out = {};
  for (const e of log) if (e.host === 'cdn' && e.bytes) out[e.path] = (out[e.path] || 0) + e.bytes;
  return out;
}

// `node tests/js/hub_server.mjs` runs the stand-in until interrupted (HF_ENDPOINT=<hub URL>).
if (import.meta.url === `file://${process.argv[1]}`) {
  const h = await startHub();
  console.log(`Hub at ${h.hub} (CDN ${h.cdn}); repositories: ${Object.keys(h.repos).join(', ')}`);
}
