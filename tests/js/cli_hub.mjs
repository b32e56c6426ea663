// `llmsizer --hf`, `inspect --hf` and `hf` against the local Hub stand-in (hub_server.mjs), through
// libcurl as a user would run them (HF_ENDPOINT pointing at it): safetensors single and sharded,
// a GGUF repository with several quantizations and a split file, a gated model with and without a
// token, a missing repository, a missing file, truncated safetensors and GGUF headers, an
// unreachable endpoint. Expected counts are worked out by hand in hub_server.mjs (TINY, LLAMA8B).
// usage: node cli_hub.mjs LLMSIZER
import { spawnSync } from 'node:child_process';
import { checker } from './browser.mjs';
import { canonical } from './canonical_json.mjs';
import { bytesServed, GOOD_TOKEN, llama8bGguf, LLAMA8B, NO_ACCESS_TOKEN, startHub, TINY, tinyConfig } from './hub_server.mjs';

const cli = process.argv[2];
const t = checker();
const h = await startHub();

/** Runs the CLI (asynchronously: the stand-in answers from this process) with HF_ENDPOINT set. */
async function run(args, env = {}) {
  const { spawn } = await import('node:child_process');
  return new Promise((ok) => {
    const child = spawn(cli, args, { env: { PATH: process.env.PATH, HF_ENDPOINT: h.hub, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('close', (status) => ok({ status, stdout, stderr }));
  });
}
const json = (r) => { try { return JSON.parse(r.stdout); } catch { return {}; } };

// ---------------------------------------------------------------- safetensors, one file
h.log.length = 0;
let r = await run(['inspect', '--hf', 'test-org/tiny-llama']);
let m = json(r);
t.check(r.status === 0, `tiny-llama: inspect --hf succeeds (${r.status}: ${r.stderr})`);
t.check(m.parameter_count === TINY.params, `tiny-llama: ${TINY.params} parameters from the header (got ${m.parameter_count})`);
t.check(m.weight_bytes === TINY.bf16Bytes, `tiny-llama: ${TINY.bf16Bytes} bytes of BF16 weights (got ${m.weight_bytes})`);
t.check(m.request_model && canonical(m.request_model.config) === canonical(tinyConfig), 'tiny-llama: the model\'s config is the repository\'s config.json, as published');
t.check(m.request_model && m.request_model.name === 'test-org/tiny-llama' && m.request_model.weights_format === 'BF16',
  `tiny-llama: named by its id, weights BF16: ${JSON.stringify(m.request_model && { name: m.request_model.name, f: m.request_model.weights_format })}`);
const listing = h.log.find((e) => e.path === '/api/models/test-org/tiny-llama');
t.check(listing && listing.search === '?blobs=true', 'tiny-llama: the listing is asked with blobs=true (file sizes)');
t.check(h.log.some((e) => e.host === 'hub' && e.path.startsWith(`/test-org/tiny-llama/resolve/${h.repos['test-org/tiny-llama'].sha}/`)),
  'tiny-llama: files are read at the listing\'s commit (resolve/<sha>/...)');
let served = bytesServed(h.log);
let cdnBytes = Object.values(served).reduce((a, b) => a + b, 0);
t.check(cdnBytes > 0 && cdnBytes <= 65536, `tiny-llama: only the first 64 KiB (at most) of the weights was read from the CDN: ${cdnBytes} B`);
t.check(h.log.filter((e) => e.host === 'cdn').every((e) => e.range.startsWith('bytes=')), 'tiny-llama: every CDN read is a Range request');

r = await run(['estimate', '--hf', 'test-org/tiny-llama', '--json']);
m = json(r);
t.check(r.status === 0 && m.model && m.model.params === TINY.params, `estimate --hf: the estimate's model has ${TINY.params} parameters (got ${m.model && m.model.params})`);
t.check(m.memory && m.memory.parts.weights === TINY.bf16Bytes, `estimate --hf: weights are the file's ${TINY.bf16Bytes} bytes (got ${m.memory && m.memory.parts.weights})`);
t.check(/read \d+ requests/.test(r.stderr), `estimate --hf: says on standard error what it read: ${r.stderr.trim()}`);

// ---------------------------------------------------------------- safetensors, sharded
h.log.length = 0;
r = await run(['inspect', '--hf', 'test-org/tiny-llama-sharded']);
m = json(r);
t.check(r.status === 0 && m.files === 2, `sharded: both shards' headers are read (files ${m.files}; ${r.stderr})`);
t.check(m.parameter_count === TINY.params && m.weight_bytes === TINY.bf16Bytes, `sharded: the shards add up to ${TINY.params} parameters and ${TINY.bf16Bytes} bytes (got ${m.parameter_count}, ${m.weight_bytes})`);
t.check(h.log.some((e) => e.path.endsWith('/model.safetensors.index.json')), 'sharded: the index is read to find the shards');
served = bytesServed(h.log);
t.check(Object.keys(served).length === 2 && Object.values(served).every((b) => b <= 65536), `sharded: each shard gave at most 64 KiB: ${JSON.stringify(served)}`);

// ---------------------------------------------------------------- GGUF: the usual file, the list, a split file
const q4 = llama8bGguf('Q4_K_M');
// By hand (hub_server.mjs LLAMA8B; ggml-common.h blocks): 2-D tensors but the output in Q4_K,
// (8,030,261,248 - 525,336,576 - 266,240 norm weights) × 144 / 256 = 4,221,370,368 B; output in
// Q6_K 525,336,576 × 210 / 256 = 430,940,160 B; 65 norms of 4096 in F32 1,064,960 B.
const Q4_BYTES = 4_221_370_368 + 430_940_160 + 1_064_960;
t.check(q4.weightBytes === Q4_BYTES, `the fixture's Q4_K_M tensors add up to ${Q4_BYTES} B (got ${q4.weightBytes})`);
h.log.length = 0;
r = await run(['inspect', '--hf', 'test-org/Llama-8B-Test-GGUF']);
m = json(r);
t.check(r.status === 0, `GGUF repo: inspect --hf succeeds (${r.stderr})`);
t.check(m.parameter_count === LLAMA8B.params, `GGUF repo: ${LLAMA8B.params} parameters (got ${m.parameter_count})`);
t.check(m.weight_bytes === Q4_BYTES && m.request_model && m.request_model.weights_format === 'Q4_K_M',
  `GGUF repo: without --hf-file the Q4_K_M file is read: ${m.weight_bytes} B, ${m.request_model && m.request_model.weights_format}`);
t.check(r.stderr.includes('Llama-8B-Test-Q4_K_M.gguf, one of 5 GGUF files'), `GGUF repo: says which file it read, of how many: ${r.stderr.trim()}`);
served = bytesServed(h.log);
const q4Path = Object.keys(served).find((p) => p.endsWith('Q4_K_M.gguf'));
t.check(Object.keys(served).length === 1 && q4Path, `GGUF repo: only the chosen file is read: ${JSON.stringify(served)}`);
t.check(served[q4Path] >= q4.header.length && served[q4Path] <= 2 * q4.header.length,
  `GGUF repo: the header (${q4.header.length} B, its 2 MB vocabulary included) is read in growing ranges, at most twice its length: ${served[q4Path]} B of ${q4.size}`);
t.check(h.log.filter((e) => e.host === 'cdn' && e.method === 'GET').length >= 3, 'GGUF repo: the header takes several range reads');

r = await run(['hf', 'test-org/Llama-8B-Test-GGUF', '--hardware', 'nvidia-rtx-4090', '--json']);
m = json(r);
const rows = m.gguf || [];
t.check(r.status === 0 && rows.length === 5, `hf: five GGUF quantizations listed, the mmproj file left out (got ${rows.map((x) => x.file).join(', ')}; ${r.stderr})`);
t.check(rows.map((x) => x.weights).join(',') === 'q2_k,q4_k_m,q8_0,gguf-f16,gguf-f32', `hf: smallest first, each with the format its name gives: ${rows.map((x) => x.weights)}`);
const f32 = rows.find((x) => x.weights === 'gguf-f32') || {};
const f32Parts = [1, 2].map((p) => llama8bGguf('F32', [p, 2]).size);
t.check(f32.size_bytes === f32Parts[0] + f32Parts[1] && f32.file === 'F32/Llama-8B-Test-F32-00001-of-00002.gguf',
  `hf: the split F32 file is one entry, its size the sum of its parts (${f32.size_bytes})`);
// An RTX 4090 has 24 GiB (25.8 GB): F32 weights alone are 8.03e9 × 4 B = 32.1 GB, so it cannot fit;
// Q4_K_M's 4.65 GB leaves ~20 GB.
t.check(f32.fits === false, `hf: F32 (32.1 GB of weights) does not fit a 24 GiB RTX 4090 (fits ${f32.fits})`);
const q4row = rows.find((x) => x.weights === 'q4_k_m') || {};
t.check(q4row.fits === true && q4row.read === true, `hf: Q4_K_M fits, and is the file whose header was read (${JSON.stringify(q4row)})`);
const direct = JSON.parse(spawnSync(cli, ['estimate', '-', '--json'], {
  input: JSON.stringify({ model: m.model.request_model, weights: 'q8_0', hardware: 'nvidia-rtx-4090' }),
}).stdout.toString());
const q8row = rows.find((x) => x.weights === 'q8_0') || {};
t.check(q8row.device_bytes === direct.memory.device_bytes && q8row.fits === direct.fit.fits,
  `hf: each row is the core's estimate with that format (Q8_0: ${q8row.device_bytes} = ${direct.memory.device_bytes})`);
r = await run(['hf', 'test-org/Llama-8B-Test-GGUF']);
t.check(r.status === 0 && r.stdout.includes('Llama-8B-Test-Q2_K.gguf') && r.stdout.includes('(header read)'), `hf: a readable table:\n${r.stdout}`);

r = await run(['inspect', '--hf', 'test-org/Llama-8B-Test-GGUF', '--hf-file', 'F32/Llama-8B-Test-F32-00001-of-00002.gguf']);
m = json(r);
t.check(r.status === 0 && m.files === 2 && m.parameter_count === LLAMA8B.params && m.weight_bytes === LLAMA8B.params * 4,
  `split GGUF: both parts' headers add up to ${LLAMA8B.params} parameters and ${LLAMA8B.params * 4} B in F32 (got ${m.files} files, ${m.parameter_count}, ${m.weight_bytes}; ${r.stderr})`);
r = await run(['inspect', '--hf', 'test-org/Llama-8B-Test-GGUF', '--hf-file', 'Llama-8B-Test-Q5_K_M.gguf']);
t.check(r.status === 2 && r.stderr.includes('has no file Llama-8B-Test-Q5_K_M.gguf') && r.stderr.includes('Llama-8B-Test-Q8_0.gguf'),
  `a file the repository does not have: named, with the files it has: ${r.stderr.trim()}`);

// ---------------------------------------------------------------- gated
h.log.length = 0;
r = await run(['inspect', '--hf', 'test-org/gated-llama']);
t.check(r.status === 2 && r.stderr.includes('test-org/gated-llama is a gated model') && r.stderr.includes('HF_TOKEN'),
  `gated, no token: a clear error naming what to do: ${r.stderr.trim()}`);
t.check(r.stderr.includes('Access to model test-org/gated-llama is restricted'), 'gated: the Hub\'s own words are quoted');
r = await run(['inspect', '--hf', 'test-org/gated-llama'], { HF_TOKEN: NO_ACCESS_TOKEN });
t.check(r.status === 2 && r.stderr.includes('the one sent has none'), `gated, a token without access: says so: ${r.stderr.trim()}`);
h.log.length = 0;
r = await run(['inspect', '--hf', 'test-org/gated-llama', '--hf-token-env', 'MY_HF'], { MY_HF: GOOD_TOKEN });
m = json(r);
t.check(r.status === 0 && m.parameter_count === TINY.params, `gated, a token with access (from --hf-token-env MY_HF): read (${r.stderr.trim()})`);
t.check(h.log.filter((e) => e.host === 'hub').every((e) => e.auth), 'gated: the token goes to the Hub with every request');
t.check(h.log.some((e) => e.host === 'cdn') && h.log.filter((e) => e.host === 'cdn').every((e) => !e.auth), 'gated: the token never reaches the CDN host the Hub redirects to');
t.check(!r.stdout.includes(GOOD_TOKEN) && !r.stderr.includes(GOOD_TOKEN), 'gated: the token is never printed');

// ---------------------------------------------------------------- missing repository, missing file, truncated headers
r = await run(['inspect', '--hf', 'test-org/no-such-model']);
t.check(r.status === 2 && r.stderr.includes('test-org/no-such-model: no such model repository') && r.stderr.includes('private'),
  `missing repository (401 RepoNotFound without a token): ${r.stderr.trim()}`);
r = await run(['inspect', '--hf', 'test-org/no-such-model'], { HF_TOKEN: GOOD_TOKEN });
t.check(r.status === 2 && r.stderr.includes('no such model repository'), `missing repository (404 with a token): ${r.stderr.trim()}`);
r = await run(['estimate', '--hf', 'test-org/vanishing-file', '--json']);
m = json(r);
t.check(r.status === 2 && r.stderr.includes('test-org/vanishing-file has no file model.safetensors') && m.error && m.error.field === 'hf',
  `a listed file that answers 404 EntryNotFound: ${r.stderr.trim()}; JSON error ${JSON.stringify(m.error)}`);
r = await run(['inspect', '--hf', 'test-org/truncated-safetensors']);
t.check(r.status === 2 && r.stderr.includes('model.safetensors:') && /header/.test(r.stderr), `truncated safetensors header: the core's error, with the file: ${r.stderr.trim()}`);
r = await run(['inspect', '--hf', 'test-org/truncated-GGUF']);
t.check(r.status === 2 && r.stderr.includes('Llama-8B-Test-Q4_K_M.gguf:') && /end|past|truncated/i.test(r.stderr), `truncated GGUF header: ${r.stderr.trim()}`);

// ---------------------------------------------------------------- bad input, no network
r = await run(['inspect', '--hf', '../etc/passwd']);
t.check(r.status === 2 && r.stderr.includes('must be a Hugging Face model id'), `a malformed id is refused before any request: ${r.stderr.trim()}`);
r = await run(['estimate', '--hf', 'test-org/tiny-llama'], { HF_ENDPOINT: 'http://127.0.0.1:9' });
t.check(r.status === 2 && r.stderr.includes('could not reach 127.0.0.1:9'), `no network: a clear error: ${r.stderr.trim()}`);
r = await run(['estimate', '--hf', 'test-org/tiny-llama', '--hf-endpoint', 'ftp://example'], {});
t.check(r.status === 2 && r.stderr.includes('hf-endpoint'), `an endpoint that is not http(s): ${r.stderr.trim()}`);

await h.close();
t.finish();
