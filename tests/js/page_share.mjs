// Share links: the whole state goes into the URL, "Copy link" copies it, and opening it restores
// every input exactly; a pasted config (with a hostile model name) survives the trip as text. Then
// hostile links — bad JSON, huge numbers, script, unknown ids, __proto__ keys, an oversized value —
// each fall back to defaults with a notice and never break the page.
// Fails on any console error, any dialog, or any request leaving 127.0.0.1.
// usage: node page_share.mjs WEB_DIR
import { checker, openBrowser, prerequisites } from './browser.mjs';
import { finalChecks, open, screenshot, settled, text } from './page_helpers.mjs';

const webDir = process.argv[2];
const chromium = await prerequisites(webDir);
const t = checker();
const b = await openBrowser(chromium, webDir);
const dialogs = [];

const FIELDS = ['#input_tokens', '#output_tokens', '#batch', '#gpus', '#weights', '#kv_cache', '#engine', '#hardware', '#budget_gb',
  '#method', '#optimizer', '#precision', '#seq_len', '#micro_batch', '#lora_rank', '#zero_stage', '#model'];
async function snapshot(page) {
  const values = {};
  for (const f of FIELDS) values[f] = await page.inputValue(f);
  values.training = await page.isChecked('#task-training');
  values.checkpointing = await page.isChecked('#checkpointing');
  values.offload = await page.isChecked('#offload');
  values.targets = await page.$$eval('#target-boxes input:checked', (xs) => xs.map((x) => x.value).join(','));
  values.gib = await page.getAttribute('#unit-gib', 'aria-pressed');
  values.total = await text(page, '#total');
  values.modelInfo = await text(page, '#model-info');
  return values;
}

try {
  // ---------------------------------------------------------------- a link restores the state exactly
  const page = await open(b, b.url, { viewport: { width: 1280, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] });
  page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss(); });
  await page.fill('#model-filter', '1.5b');
  await page.selectOption('#model', 'qwen2.5-1.5b-instruct');
  await page.selectOption('#weights', 'int8');
  await page.selectOption('#kv_cache', 'fp8');
  await page.selectOption('#engine', 'vllm');
  for (const [id, v] of [['#input_tokens', '4096'], ['#output_tokens', '512'], ['#batch', '4'], ['#budget_gb', '12.5']]) {
    await page.fill(id, v);
  }
  await page.click('#unit-gib');
  await settled(page);
  await page.click('#copy-link');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  const shown = await page.inputValue('#share-url');
  t.check(copied === shown && copied === page.url(), `"Copy link" copies the page's link (${copied.slice(0, 80)}…)`);
  const before = await snapshot(page);
  const restored = await open(b, copied, { viewport: { width: 1280, height: 900 } });
  const after = await snapshot(restored);
  t.check(JSON.stringify(before) === JSON.stringify(after), `the link restores every input\n  before ${JSON.stringify(before)}\n  after  ${JSON.stringify(after)}`);
  t.check(await restored.isHidden('#notice'), 'a good link shows no notice');

  // A training set-up round-trips too.
  await page.check('#task-training');
  await page.selectOption('#method', 'full');
  await page.selectOption('#optimizer', 'sgd');
  await page.fill('#seq_len', '4096');
  await page.fill('#micro_batch', '2');
  await page.uncheck('#checkpointing');
  await page.selectOption('#method', 'lora');
  await page.click('#targets-attention');
  await page.fill('#lora_rank', '64');
  await page.selectOption('#method', 'full');
  await settled(page);
  const trainingBefore = await snapshot(page);
  const trainingAfter = await snapshot(await open(b, page.url()));
  t.check(JSON.stringify(trainingBefore) === JSON.stringify(trainingAfter), `a training link restores every input\n  before ${JSON.stringify(trainingBefore)}\n  after  ${JSON.stringify(trainingAfter)}`);

  // A pasted config.json whose name is markup: shown as text, restored from the link as text.
  await page.check('#task-inference');
  await page.click('#import summary');
  const hostileName = '<img src=x onerror="window.pwned=1">';
  const config = { _name_or_path: hostileName, model_type: 'llama', hidden_size: 2048, num_hidden_layers: 16, num_attention_heads: 32,
    num_key_value_heads: 8, intermediate_size: 8192, vocab_size: 128256, tie_word_embeddings: true, max_position_embeddings: 131072 };
  await page.fill('#config-text', JSON.stringify(config));
  await page.click('#config-apply');
  await settled(page);
  t.check((await text(page, '#model-info')).startsWith(hostileName), `a config's name is shown as text: ${await text(page, '#model-info')}`);
  const configLink = await open(b, page.url());
  t.check((await text(configLink, '#model-info')).startsWith(hostileName), 'the imported config comes back from the link');
  t.check((await configLink.locator('img').count()) === 0 && !(await configLink.evaluate(() => window.pwned)), 'no markup from the config ran');
  await page.fill('#config-text', '{"hidden_size": 2048,');
  await page.click('#config-apply');
  t.check((await text(page, '#config-text-error')).includes('Imported config.json'), 'malformed pasted JSON is reported by the text box');
  await page.fill('#config-text', JSON.stringify({ ...config, hidden_size: -1 }));
  await page.click('#config-apply');
  const configError = await text(page, '#config-text-error');
  t.check(configError.includes('model.config.hidden_size'), `a bad config value shows the core's error naming its field: ${configError}`);
  await screenshot(page, 'page-1280-config-error');

  // ---------------------------------------------------------------- hostile links
  const defaultTotal = await text(await open(b, b.url), '#total');
  const big = 'x'.repeat(70000);
  const hostile = [
    ['bad JSON config', '#config={not json', true],
    ['script as a model id', `#model=${encodeURIComponent('<script>alert(1)</script>')}`, true],
    ['number overflow', '#input_tokens=1e999', true],
    ['huge number', '#input_tokens=999999999', true],
    ['negative number', '#batch=-1', true],
    ['unknown preset', '#model=no-such-model', true],
    ['unknown hardware', '#hardware=javascript:alert(1)', true],
    ['unknown format', '#weights=int3&lang=xx&unit=tb', true],
    ['prototype keys', `#__proto__[polluted]=1&constructor=1&config=${encodeURIComponent('{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}')}`, true],
    ['oversized link', `#config=${big}`, true],
    ['broken escapes', '#model=%E0%A4%A&weights=%', true],
    ['markup as a name', `#name=${encodeURIComponent('<b onmouseover=alert(1)>x</b>')}&config=${encodeURIComponent(JSON.stringify(config))}`, false],
  ];
  for (const [what, suffix, expectNotice] of hostile) {
    const before = b.consoleErrors.length;
    const p = await open(b, b.url + suffix);
    p.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss(); });
    const total = await text(p, '#total');
    const noticeShown = await p.isVisible('#notice');
    t.check(/\d/.test(total), `${what}: the page still shows a result (${total})`);
    t.check(noticeShown === expectNotice, `${what}: notice ${expectNotice ? 'shown' : 'not shown'}`);
    if (expectNotice && what !== 'bad JSON config' && what !== 'unknown hardware') {
      t.check(total === defaultTotal, `${what}: falls back to the default result (${total} vs ${defaultTotal})`);
    }
    const polluted = await p.evaluate(() => ({}).polluted !== undefined || Object.prototype.polluted !== undefined);
    t.check(!polluted, `${what}: Object.prototype is untouched`);
    t.check((await p.locator('img, b').count()) === 0, `${what}: no markup from the link was inserted`);
    t.check(b.consoleErrors.length === before, `${what}: no console error`);
    if (what === 'prototype keys') await screenshot(p, 'page-1280-hostile-notice');
    await p.context().close();
  }
  t.check(dialogs.length === 0, `no dialog opened: ${dialogs.join(' | ')}`);
  // A link keeping an old micro_batch beside the current training_micro_batch: the current name wins,
  // before or after the old one.
  for (const hash of ['#task=training&micro_batch=8&training_micro_batch=4', '#task=training&training_micro_batch=4&micro_batch=8']) {
    const p = await open(b, `${b.url}${hash}`, { viewport: { width: 1280, height: 900 } });
    t.check((await p.inputValue('#micro_batch')) === '4', `${hash}: training_micro_batch=4 wins over micro_batch=8 (${await p.inputValue('#micro_batch')})`);
    await p.context().close();
  }
} finally {
  finalChecks(t, b);
  await b.close();
}
t.finish();
