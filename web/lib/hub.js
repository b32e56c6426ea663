// SPDX-License-Identifier: MIT
// Load by id: sends only the id and file names; reads config.json and the weights' header bytes
// (Range) for the core. The Hub's URL layout: see core/cli/hub_client.cpp. Every rule is the core's,
// the same the CLI's reader follows: the files to read (planRepository), how much of each header
// (nextHeaderRead; maxWholeFileBytes for a file read whole), which ids the Hub accepts (validRepoId), what a failed answer means (hubFailure).

export const HUB = 'https://huggingface.co';

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

/** "owner/name[/file]" or a huggingface.co address → {id, file}, or null when the core's
 *  validRepoId refuses the id. */
export function parseHubInput(core, text) {
  const s = String(text || '').trim().replace(/^https?:\/\/(www\.)?(huggingface\.co|hf\.co)\//, '').replace(/[?#].*$/, '');
  const parts = s.split('/').filter(Boolean);
  if (parts.length > 3 && /^(blob|resolve|tree)$/.test(parts[2])) parts.splice(2, 2);
  const id = parts.slice(0, 2).join('/');
  if (!core.validRepoId(id)) return null;
  return { id, file: parts.slice(2).join('/') };
}

/** The plan's failure as the page says it (the core's message ids, core/src/edge/model_files/repository.cpp). */
const PLAN_ERRORS = {
  'error.repository.listing': 'hub.badListing',
  'error.repository.file_not_found': 'hub.noFile',
  'error.repository.file_kind': 'hub.badId',
  'error.repository.no_model_files': 'hub.noModelFiles',
};

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
export async function readRepository(core, { endpoint = HUB, id, file = '', progress = () => {} }) {
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
    const kind = core.hubFailure(r.status, r.headers.get('x-error-code') || '', gated, Boolean(what));
    if (kind === 'gated') return new HubError('hub.gated', { id, host });
    if (kind === 'repository_not_found') return new HubError('hub.notFound', { id, host });
    if (kind === 'file_not_found') return new HubError('hub.noFile', { id, file: what });
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
  const listingText = new TextDecoder().decode(await readAtMost(listed, core.maxWholeFileBytes));
  bytesRead += listingText.length;
  const plan = JSON.parse(core.planRepository(listingText, file));
  if (plan.error) {
    const key = PLAN_ERRORS[(plan.error.message_data && plan.error.message_data.id) || ''];
    throw new HubError(key || 'hub.coreError', { id, file: file || id }, key ? null : plan.error);
  }
  gated = Boolean(plan.gated);
  const revision = plan.revision || 'main';
  const url = (f) => `${endpoint}/${id}/resolve/${encodeURIComponent(revision)}/${f.split('/').map(encodeURIComponent).join('/')}`;
  const whole = async (f) => {
    progress('hub.reading', { file: f });
    const r = await get(url(f));
    if (r.status !== 200) throw failure(r, f);
    const bytes = await readAtMost(r, core.maxWholeFileBytes);
    bytesRead += bytes.length;
    return bytes;
  };
  const header = async (f, size) => {
    progress('hub.reading', { file: f });
    let prefix = new Uint8Array(0);
    let want = core.nextHeaderRead(0, 0, size).bytes;
    for (;;) {  // nextHeaderRead asks for more each round, up to its cap
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
      if (!s.error) {
        delete s.tensors;
        return s;
      }
      const next = core.nextHeaderRead(prefix.length, typeof s.error.needed_bytes === 'number' ? s.error.needed_bytes : 0, size);
      if (next.step === 'answered') throw new HubError('hub.coreError', { file: f }, s.error);
      if (next.step === 'too_long') throw new HubError('hub.tooBig', { file: f });
      want = next.bytes;
    }
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
