// SPDX-License-Identifier: MIT
// Load by id: sends only the id and file names; reads config.json and the weights' header bytes
// (Range) for the core. The Hub's URL layout and errors: see core/cli/hub_client.cpp.

export const HUB = 'https://huggingface.co';
const FIRST_READ = 64 * 1024;
const MAX_HEADER = 256 * 1024 * 1024;
const MAX_WHOLE = 64 * 1024 * 1024;

/** A failure: `key` a page string with `args`; `core` the core's error. */
export class HubError extends Error {
  constructor(key, args = {}, core = null) {
    super(key);
    Object.assign(this, { key, args, core });
  }
}

/** huggingface.co, or the `hub` query value (tests; the page's CSP still decides what loads). */
export function hubEndpoint(href) {
  try {
    const value = new URL(href).searchParams.get('hub');
    if (value && /^https?:\/\/[^/?#]+$/.test(value.replace(/\/+$/, ''))) return value.replace(/\/+$/, '');
  } catch { /* huggingface.co */ }
  return HUB;
}

const PART = /^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,94}[A-Za-z0-9_])?$/;

/** "owner/name[/file.gguf]" or a huggingface.co address → {id, file}, or null (validate_repo_id). */
export function parseHubInput(text) {
  const s = String(text || '').trim().replace(/^https?:\/\/(www\.)?(huggingface\.co|hf\.co)\//, '').replace(/[?#].*$/, '');
  const parts = s.split('/').filter(Boolean);
  if (parts.length > 3 && /^(blob|resolve|tree)$/.test(parts[2])) parts.splice(2, 2);
  const owner = parts[0] || '';
  const name = parts[1] || '';
  const ok = (p) => PART.test(p) && !p.includes('--') && !p.includes('..');
  if (!ok(owner) || (parts.length > 1 && !ok(name))) return null;
  const file = parts.slice(2).join('/');
  if (file && !/\.(gguf|safetensors)$/i.test(file)) return null;
  return { id: parts.length > 1 ? `${owner}/${name}` : owner, file };
}

/** core/src/json/repository.cpp plan_repository's choice of files (a copy: it would add 6 KB to the
 *  WASM; page_hub.mjs and cli_hub.mjs check both on the same repositories). */
export function planRepository(listing, chosen, formats) {
  if (!listing || !Array.isArray(listing.siblings)) throw new HubError('hub.badListing', {});
  const sizes = {};
  for (const s of listing.siblings) sizes[s.rfilename] = (s.lfs && s.lfs.size) ?? s.size ?? -1;
  const names = Object.keys(sizes);
  const ggufIds = formats.filter((w) => w.ecosystem === 'gguf' && w.id !== 'q2_k_2023').map((w) => w.id);
  const quants = new Map();
  for (const name of names) {
    if (!/\.gguf$/i.test(name) || /^mmproj/i.test(name.split('/').pop())) continue;
    const split = /^(.*)-(\d{5})-of-(\d{5})\.gguf$/i.exec(name);
    const key = split ? `${split[1]}#split` : name;
    const q = quants.get(key) || { file: '', parts: [], expected: split ? Number(split[3]) : 1 };
    q.parts.push(name);
    if (!split || Number(split[2]) === 1) q.file = name;
    quants.set(key, q);
  }
  const gguf = [...quants.values()].map((q) => {
    q.parts.sort();
    const file = q.file || q.parts[0];
    let size = q.parts.length === q.expected ? 0 : -1;
    for (const p of q.parts) size = size < 0 || sizes[p] < 0 ? -1 : size + sizes[p];
    const lowerName = file.toLowerCase();
    let weights = null;
    let at = 0;
    for (const id of ggufIds) {
      const token = id.replace(/^gguf-/, '');
      const m = new RegExp(`(^|[^a-z0-9])${token}(?![a-z0-9])`).exec(lowerName);
      if (m && (!weights || token.length > weights.replace(/^gguf-/, '').length)) { weights = id; at = m.index + m[1].length; }
    }
    const quant = weights ? file.slice(at, at + weights.replace(/^gguf-/, '').length).toUpperCase() : null;
    return { file, parts: q.parts, size_bytes: size < 0 ? null : size, quant, weights };
  }).sort((a, b) => ((a.size_bytes ?? Infinity) - (b.size_bytes ?? Infinity)) || (a.file < b.file ? -1 : 1));
  const root = names.filter((n) => !n.includes('/'));
  const safetensors = root.filter((n) => /\.safetensors$/i.test(n));
  const index = 'model.safetensors.index.json' in sizes ? 'model.safetensors.index.json' : root.find((n) => /\.safetensors\.index\.json$/i.test(n));
  const plan = { id: listing.id, revision: listing.sha || '', gated: Boolean(listing.gated), kind: '', config: 'config.json' in sizes ? 'config.json' : null,
    index: null, read: [], chosen: '', gguf, sizes };
  const useQuant = (q) => Object.assign(plan, { kind: 'gguf', read: q.parts, chosen: q.file });
  if (chosen) {
    const q = gguf.find((x) => x.parts.includes(chosen));
    if (q && /\.gguf$/i.test(chosen)) useQuant(q);
    else if (/\.safetensors$/i.test(chosen) && chosen in sizes) Object.assign(plan, { kind: 'safetensors', read: [chosen], chosen });
    else throw new HubError('hub.noFile', { id: listing.id, file: chosen });
  } else if (index) Object.assign(plan, { kind: 'safetensors-sharded', index });
  else if ('model.safetensors' in sizes || safetensors.length === 1) Object.assign(plan, { kind: 'safetensors', read: ['model.safetensors' in sizes ? 'model.safetensors' : safetensors[0]] });
  else if (gguf.length) useQuant(gguf.find((x) => x.weights === 'q4_k_m') || gguf.find((x) => x.weights) || gguf[0]);
  else if (plan.config) plan.kind = 'config';
  else throw new HubError('hub.noModelFiles', { id: listing.id });
  return plan;
}

async function readAtMost(response, limit) {
  const reader = response.body.getReader();
  const chunks = [];
  let length = 0;
  while (length < limit) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.length;
  }
  if (length >= limit) reader.cancel().catch(() => {});
  const out = new Uint8Array(Math.min(length, limit));
  let at = 0;
  for (const c of chunks) {
    const n = Math.min(c.length, out.length - at);
    out.set(c.subarray(0, n), at);
    at += n;
  }
  return out;
}

/** The model of repository `id` ({plan, model, requests, bytesRead}); throws HubError. */
export async function readRepository(core, { endpoint = HUB, id, file = '', formats = [], progress = () => {} }) {
  const host = new URL(endpoint).host;
  let requests = 0;
  let bytesRead = 0;
  let gated = false;
  const get = async (url, range) => {
    requests++;
    try {
      return await fetch(url, { headers: range ? { Range: `bytes=${range}` } : {}, credentials: 'omit', referrerPolicy: 'no-referrer', cache: 'no-store' });
    } catch {
      throw new HubError('hub.offline', { host });
    }
  };
  const failure = (r, what) => {
    const code = r.headers.get('x-error-code') || '';
    if (code === 'GatedRepo' || ((r.status === 401 || r.status === 403) && gated)) return new HubError('hub.gated', { id, host });
    if (code === 'RepoNotFound' || (!what && (r.status === 401 || r.status === 404))) return new HubError('hub.notFound', { id, host });
    if (code === 'EntryNotFound' || r.status === 404) return new HubError('hub.noFile', { id, file: what });
    return new HubError('hub.http', { file: what || id, status: r.status });
  };
  const coreAnswer = (text, what) => {
    const a = JSON.parse(text);
    if (a.error) throw new HubError('hub.coreError', { file: what }, a.error);
    return a;
  };

  progress('hub.reading', { file: 'api/models' });
  const listed = await get(`${endpoint}/api/models/${id}?blobs=true`);
  if (listed.status !== 200) throw failure(listed, '');
  const listingText = new TextDecoder().decode(await readAtMost(listed, MAX_WHOLE));
  bytesRead += listingText.length;
  let listing;
  try { listing = JSON.parse(listingText); } catch { listing = null; }
  const plan = planRepository(listing, file, formats);
  gated = Boolean(plan.gated);
  const revision = plan.revision || 'main';
  const url = (f) => `${endpoint}/${id}/resolve/${encodeURIComponent(revision)}/${f.split('/').map(encodeURIComponent).join('/')}`;
  const whole = async (f) => {
    progress('hub.reading', { file: f });
    const r = await get(url(f));
    if (r.status !== 200) throw failure(r, f);
    const bytes = await readAtMost(r, MAX_WHOLE);
    bytesRead += bytes.length;
    return bytes;
  };
  const header = async (f, size) => {
    progress('hub.reading', { file: f });
    let prefix = new Uint8Array(0);
    let want = size > 0 ? Math.min(size, FIRST_READ) : FIRST_READ;
    for (let round = 0; round < 40; round++) {
      if (prefix.length < want) {
        const asked = want - prefix.length;
        const r = await get(url(f), `${prefix.length}-${want - 1}`);
        if (size < 0) size = Number(((r.headers.get('content-range') || '').split('/')[1]) || -1) || -1;
        if (r.status === 416) throw new HubError('hub.truncated', { file: f, got: prefix.length, want });
        if (r.status !== 206 && r.status !== 200) throw failure(r, f);
        let body = await readAtMost(r, r.status === 200 ? want : asked);
        bytesRead += body.length;
        if (r.status === 200) body = body.subarray(prefix.length);
        const next = new Uint8Array(prefix.length + Math.min(body.length, asked));
        next.set(prefix);
        next.set(body.subarray(0, asked), prefix.length);
        prefix = next;
        if (prefix.length < want && (size < 0 || want <= size)) throw new HubError('hub.truncated', { file: f, got: prefix.length, want });
      }
      const s = JSON.parse(core.inspectModelFile(prefix, size));
      const need = s.error && typeof s.error.needed_bytes === 'number' ? s.error.needed_bytes : 0;
      if (s.error && need <= prefix.length) throw new HubError('hub.coreError', { file: f }, s.error);
      if (!s.error) {
        delete s.tensors;
        return s;
      }
      if (prefix.length >= MAX_HEADER) throw new HubError('hub.tooBig', { file: f });
      want = Math.min(Math.max(need, 2 * prefix.length), MAX_HEADER);
      if (size > 0) want = Math.min(want, size);
    }
    throw new HubError('hub.tooBig', { file: f });
  };

  const parts = { name: plan.id || id, config: null, files: [] };
  if (typeof plan.config === 'string') {
    const text = new TextDecoder().decode(await whole(plan.config));
    let config;
    try { config = JSON.parse(text); } catch { config = null; }
    if (!config || typeof config !== 'object' || Array.isArray(config)) throw new HubError('hub.badConfig', { id });
    parts.config = config;
  }
  let files = plan.read || [];
  if (typeof plan.index === 'string') {
    const bytes = await whole(plan.index);
    files = coreAnswer(core.inspectModelFile(bytes, bytes.length), plan.index).shards || [];
  }
  const sizes = plan.sizes || {};
  for (const f of files) parts.files.push(await header(f, typeof sizes[f] === 'number' ? sizes[f] : -1));
  const model = coreAnswer(core.describeRepositoryModel(JSON.stringify(parts)), id);
  return { plan, model, requests, bytesRead };
}
