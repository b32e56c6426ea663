// llama.cpp's own settings on the real page (llama-server -ub, -np, -ngl, --kv-unified, --no-mmap):
// - the group is shown for the llama.cpp engine only;
// - what the page shows for a setting is what the core answers for the same request (the page only
//   renders), and the setting moves memory the way llama.cpp does: a 2048-token micro-batch needs a
//   larger compute buffer than the default 512, and 0 layers on the GPU leaves the weights in RAM;
// - a link keeps the settings and opens with them; a bad value is named by its field, the rest kept.
// Fails on any console error or any request leaving 127.0.0.1.
// usage: node page_llama_cpp_settings.mjs WEB_DIR
import { checker, openBrowser, prerequisites } from './browser.mjs';
import { loadPageCore } from './load_core.mjs';
import { finalChecks, open, settled, text } from './page_helpers.mjs';

const webDir = process.argv[2];
const chromium = await prerequisites(webDir);
const core = await loadPageCore(webDir);
const t = checker();
const b = await openBrowser(chromium, webDir);
const base = { model: 'qwen2.5-7b-instruct', task: 'inference', gpus: 1, weights: 'q4_k_m', kv_cache: 'f16', engine: 'llama.cpp',
  input_tokens: 8192, output_tokens: 1024, batch: 1, hardware: 'nvidia-rtx-4090' };
const coreAnswer = (extra) => JSON.parse(core.estimate(JSON.stringify({ ...base, ...extra })));
const bytesShown = async (page, part) => Number(await page.getAttribute(`[data-part="${part}"]`, 'data-bytes'));

async function setField(page, id, value) {
  await page.fill(`#${id}`, String(value));
  await settled(page);
}

try {
  const page = await open(b, `${b.url}index.html#model=qwen2.5-7b-instruct&weights=q4_k_m&kv_cache=f16&engine=generic&input_tokens=8192&output_tokens=1024&hardware=nvidia-rtx-4090`,
    { viewport: { width: 1280, height: 900 } });
  t.check(await page.isHidden('#llama-cpp-settings'), 'the llama.cpp settings are hidden for another engine');
  await page.selectOption('#engine', 'llama.cpp');
  await settled(page);
  t.check(await page.isVisible('#llama-cpp-settings'), 'the llama.cpp settings are shown for llama.cpp');
  t.check(await page.isChecked('#mmap'), 'mmap is on by default, as in llama-server');
  t.check(!(await page.isChecked('#kv_unified')), 'the unified KV buffer is off by default');

  const defaults = coreAnswer({});
  const activations512 = await bytesShown(page, 'activations');
  t.check(activations512 === defaults.memory.parts.activations, `default micro-batch: the page shows the core's compute buffer (${activations512} vs ${defaults.memory.parts.activations})`);

  await page.click('#llama-cpp-settings summary');
  await setField(page, 'ubatch', 2048);
  const ub2048 = coreAnswer({ ubatch: 2048 });
  const activations2048 = await bytesShown(page, 'activations');
  t.check(activations2048 === ub2048.memory.parts.activations, `-ub 2048: the page shows the core's answer (${activations2048} vs ${ub2048.memory.parts.activations})`);
  // llama.cpp's compute buffer holds the micro-batch's activations (n_ubatch rows), so 4× the rows is larger.
  t.check(activations2048 > activations512, `-ub 2048 needs a larger compute buffer than 512 (${activations2048} > ${activations512})`);

  await setField(page, 'gpu_layers', 0);
  const cpuOnly = coreAnswer({ ubatch: 2048, n_gpu_layers: 0 });
  // Every layer on the CPU: RAM holds at least the weights the default run kept on the GPU, and the GPU less.
  t.check(cpuOnly.memory.host_bytes >= defaults.memory.parts.weights, `-ngl 0: the weights are in RAM (${cpuOnly.memory.host_bytes} B on the host, ${defaults.memory.parts.weights} B of weights)`);
  t.check(cpuOnly.memory.device_bytes < ub2048.memory.device_bytes, '-ngl 0: the GPU holds less than with every layer on it');
  const weightsShown = await bytesShown(page, 'weights');
  t.check(weightsShown === cpuOnly.memory.parts.weights, `-ngl 0: the page shows the core's weights part (${weightsShown} vs ${cpuOnly.memory.parts.weights})`);

  // The link carries the settings; opening it restores them.
  const link = await page.inputValue('#share-url');
  t.check(link.includes('ubatch=2048') && link.includes('gpu_layers=0') && link.includes('engine=llama.cpp'), `the link keeps the settings: ${link}`);
  const again = await open(b, link, { viewport: { width: 1280, height: 900 } });
  t.check((await again.inputValue('#ubatch')) === '2048' && (await again.inputValue('#gpu_layers')) === '0', 'the link opens with -ub 2048 and -ngl 0');
  t.check((await bytesShown(again, 'weights')) === cpuOnly.memory.parts.weights, 'the link shows the same answer');

  // A bad value: the core names the field and its range; the page shows it by the field and keeps the rest.
  await again.fill('#ubatch', '-5');
  await again.waitForSelector('#ubatch-error');
  const error = await text(again, '#ubatch-error');
  t.check(/ubatch/.test(error) && /\d/.test(error), `a micro-batch of -5 is named with its range: ${error}`);
  t.check((await again.inputValue('#gpu_layers')) === '0' && (await again.inputValue('#input_tokens')) === '8192', 'the other inputs are kept');
  finalChecks(t, b);
} finally {
  await b.close();
}
t.finish();
