// The verdict's fixes are buttons: each sets the changes the core re-estimated
// in the form, and the page then shows the core's answer for the changed request.
// - Qwen2.5-32B in bf16 on an RTX 4090 does not fit (32.8e9 params × 2 B = 65.5 GB > 24 GiB); the first
//   fix the core lists is applied: the form holds its values and the verdict is the core's for them;
// - LoRA on Qwen2.5-7B at 16k tokens without checkpointing on the same card: the fix "train at N
//   tokens" sets the sequence length to the core's N.
// Fails on any console error or any request leaving 127.0.0.1.
// usage: node page_fixes.mjs WEB_DIR
import { checker, openBrowser, prerequisites } from './browser.mjs';
import { loadPageCore } from './load_core.mjs';
import { finalChecks, open, settled } from './page_helpers.mjs';

const webDir = process.argv[2];
const chromium = await prerequisites(webDir);
const core = await loadPageCore(webDir);
const t = checker();
const b = await openBrowser(chromium, webDir);
const estimate = (request) => JSON.parse(core.estimate(JSON.stringify(request)));
const viewport = { width: 1280, height: 900 };

try {
  // ---------------------------------------------------------------- inference
  const request = { model: 'qwen2.5-32b-instruct', task: 'inference', gpus: 1, weights: 'bf16', kv_cache: 'bf16', engine: 'generic',
    input_tokens: 8192, output_tokens: 1024, batch: 1, hardware: 'nvidia-rtx-4090' };
  const before = estimate(request);
  t.check(before.fit && before.fit.fits === false && before.fit.fixes.length > 0, 'the core says 32B bf16 does not fit a 4090 and lists fixes');
  const link = `${b.url}index.html#model=qwen2.5-32b-instruct&weights=bf16&kv_cache=bf16&engine=generic&input_tokens=8192&output_tokens=1024&hardware=nvidia-rtx-4090`;
  const page = await open(b, link, { viewport });
  const buttons = await page.$$('#fixes button[data-apply]');
  t.check(buttons.length === before.fit.fixes.length, `one button per fix (${buttons.length} of ${before.fit.fixes.length})`);
  const fix = before.fit.fixes[0];
  await buttons[0].click();
  await settled(page);
  const after = estimate({ ...request, ...fix.changes });
  for (const [field, value] of Object.entries(fix.changes)) {
    t.check((await page.inputValue(`#${field}`)) === String(value), `the form holds the fix's ${field} = ${value}`);
  }
  t.check(Number(await page.getAttribute('#total', 'data-bytes')) === after.fit.required_bytes,
    `the page shows the core's answer for the fixed request (${await page.getAttribute('#total', 'data-bytes')} vs ${after.fit.required_bytes})`);
  t.check((await page.getAttribute('#verdict-text', 'data-fits')) === String(after.fit.fits), 'the verdict is the core\'s for the fixed request');

  // By keyboard: Enter on a fix's button applies it, and the focus lands on the new verdict (the button
  // it was on is gone), from which Tab goes on through the verdict's own controls.
  const keys = await open(b, link, { viewport });
  await keys.focus('#fixes button[data-apply]');
  await keys.keyboard.press('Enter');
  await settled(keys);
  t.check(Number(await keys.getAttribute('#total', 'data-bytes')) === after.fit.required_bytes, 'Enter on the first fix applies it');
  const focused = await keys.evaluate(() => (document.activeElement === document.body ? 'body' : document.activeElement.id));
  t.check(focused === 'verdict', `after Enter the focus is on the new verdict, not lost: ${focused}`);
  await keys.keyboard.press('Tab');
  const next = await keys.evaluate(() => { const a = document.activeElement; return a.closest('#verdict') ? 'inside the verdict' : a.id || a.tagName; });
  t.check(next === 'inside the verdict', `Tab goes on inside the verdict: ${next}`);

  // ---------------------------------------------------------------- training: the sequence length that fits
  const training = { model: 'qwen2.5-7b-instruct', task: 'training', gpus: 1, weights: 'bf16', hardware: 'nvidia-rtx-4090',
    training: { method: 'lora', optimizer: 'adamw', precision: 'mixed-bf16', seq_len: 16384, micro_batch: 1, gradient_checkpointing: false,
      zero_stage: 0, offload_optimizer: false, lora_rank: 16, lora_targets: ['all-linear'] } };
  const trainingFixes = estimate(training).fit.fixes;
  const seqFix = trainingFixes.find((x) => 'training.seq_len' in x.changes);
  const trainPage = await open(b, `${b.url}index.html#model=qwen2.5-7b-instruct&task=training&weights=bf16&hardware=nvidia-rtx-4090&method=lora&optimizer=adamw&precision=mixed-bf16&seq_len=16384&training_micro_batch=1&checkpointing=0&lora_rank=16&lora_targets=all-linear`, { viewport });
  const changes = await trainPage.$$eval('#fixes li', (items) => items.map((li) => li.dataset.changes));
  const at = changes.findIndex((c) => c && c.includes('training.seq_len'));
  t.check(seqFix !== undefined && at >= 0, 'the page lists the core\'s "shorter sequences" fix');
  if (seqFix && at >= 0) {
    await (await trainPage.$$('#fixes button[data-apply]'))[at].click();
    await settled(trainPage);
    t.check((await trainPage.inputValue('#seq_len')) === String(seqFix.changes['training.seq_len']),
      `the sequence length is the core's ${seqFix.changes['training.seq_len']} tokens`);
  }
  finalChecks(t, b);
} finally {
  await b.close();
}
t.finish();
