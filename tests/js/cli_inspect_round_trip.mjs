// The page's round trip through a dropped file, run with the native CLI: `llmsizer inspect FILE`
// answers resolved_model and request_model; the page then estimates with request_model as the
// model, and that answer's model must be resolved_model again (params, layers, widths, features).
// Files: the 3.9 MB Qwen2.5-7B GGUF header of gguf_fixture.mjs and every file of the Hub
// stand-in's repositories (hub_server.mjs buildRepos), each written at its full size (a sparse
// file: the header, then zeros). Expected counts are worked out by hand in those files (FIXTURE,
// TINY, LLAMA8B); Qwen2.5-7B's 7,615,616,512 is its Hugging Face safetensors total.
// usage: node cli_inspect_round_trip.mjs LLMSIZER
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { checker } from './browser.mjs';
import { canonical } from './canonical_json.mjs';
import { FIXTURE, ggufFixture } from './gguf_fixture.mjs';
import { buildRepos, LLAMA8B, TINY } from './hub_server.mjs';

const cli = process.argv[2];
const t = checker();
const dir = mkdtempSync(join(tmpdir(), 'llmsizer-inspect-'));

/** Writes `bytes` as `name` under the temporary folder, `size` bytes long (the rest a hole). */
function put(name, bytes, size = bytes.length) {
  const path = join(dir, name);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, bytes);
  if (size > bytes.length) truncateSync(path, size);
  return path;
}

/** Inspects `path`, estimates with its request_model, and checks the two models agree.
 *  Returns inspect's answer (null when inspect refused the file). */
function roundTrip(label, path) {
  const inspect = spawnSync(cli, ['inspect', path], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (inspect.status !== 0) return null;
  const answer = JSON.parse(inspect.stdout);
  if (!answer.request_model) return answer;  // a file without a model of its own (a projector)
  const estimate = spawnSync(cli, ['estimate', '-', '--json'], {
    input: JSON.stringify({ model: answer.request_model }), encoding: 'utf8', maxBuffer: 1 << 28,
  });
  t.check(estimate.status === 0, `${label}: estimate with request_model answers (${estimate.stderr.trim()})`);
  if (estimate.status === 0) {
    const model = JSON.parse(estimate.stdout).model;
    t.check(canonical(model) === canonical(answer.resolved_model),
      `${label}: estimate(request_model).model equals resolved_model\n  ${canonical(model)}\n  ${canonical(answer.resolved_model)}`);
  }
  return answer;
}

try {
  // The GGUF of the paired benchmark: Qwen2.5-7B, Q4_K_M.
  const fixture = ggufFixture();
  const q = roundTrip('gguf_fixture', put('qwen2.5-7b-q4_k_m.gguf', fixture.bytes, fixture.fileSize));
  t.check(q !== null, 'gguf_fixture: inspect reads the file');
  if (q) {
    const r = q.resolved_model;
    t.check(r.params === 7_615_616_512 && r.layers === FIXTURE.layers && r.hidden_size === FIXTURE.hidden &&
      r.attention_heads === FIXTURE.heads && r.kv_heads === FIXTURE.kvHeads && r.vocab_size === FIXTURE.tokens,
    `gguf_fixture: Qwen2.5-7B's shape (${JSON.stringify(r)})`);
  }

  // Every file of the Hub stand-in's repositories, in its own folder (a sharded index next to its shards).
  const expected = { 'test-org/tiny-llama': TINY.params, 'test-org/tiny-llama-sharded': TINY.params, 'test-org/Llama-8B-Test-GGUF': LLAMA8B.params };
  let inspected = 0;
  for (const [repo, { files }] of Object.entries(buildRepos())) {
    for (const [name, f] of Object.entries(files)) put(join(repo, name), f.bytes, f.size);
    for (const name of Object.keys(files)) {
      if (name.endsWith('.md')) continue;
      const answer = roundTrip(`${repo}/${name}`, join(dir, repo, name));
      // Refused: a header cut short, and a vision projector's GGUF (general.architecture "clip").
      const refused = (repo.includes('truncated') && name !== 'config.json') || name.startsWith('mmproj-');
      t.check((answer === null) === refused, `${repo}/${name}: inspect ${refused ? 'refuses the file' : 'reads the file'}`);
      if (!answer?.resolved_model) continue;
      inspected++;
      const params = expected[repo];
      // A shard or a split GGUF's part holds only its own tensors (whole counts: cli_hub.mjs).
      if (params && !name.startsWith('F32/') && !name.startsWith('model-0000')) {
        t.check(answer.resolved_model.params === params, `${repo}/${name}: ${params} parameters (${answer.resolved_model.params})`);
      }
    }
  }
  // An empty file: one read of nothing, then an error that names the field (no endless re-reading).
  const empty = spawnSync(cli, ['inspect', put('empty.gguf', Buffer.alloc(0))], { encoding: 'utf8', timeout: 20_000 });
  t.check(empty.error === undefined && empty.status !== 0 && /file/.test(empty.stdout + empty.stderr),
    `an empty file is refused at once, naming the file (${empty.error} ${empty.status} ${empty.stderr.trim()})`);
  t.check(inspected === 16, `the Hub stand-in's files were inspected (${inspected})`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
t.finish();
