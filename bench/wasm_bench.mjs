// WASM timings beside the native Google Benchmark ones: the same requests through the page's
// module in Node (loaded as the page loads it). Prints the median of repeated runs per call.
// usage: node bench/wasm_bench.mjs [build/wasm/web]
import { performance } from 'node:perf_hooks';
import { loadCore } from '../tests/js/load_core.mjs';

const webDir = process.argv[2] || 'build/wasm/web';
const t0 = performance.now();
const core = await loadCore(webDir);
const startup = performance.now() - t0;

const requests = {
  estimate: JSON.stringify({ model: 'qwen2.5-7b-instruct', weights: 'int4', input_tokens: 7168, output_tokens: 1024 }),
  estimate_with_hardware: JSON.stringify({ model: 'qwen2.5-7b-instruct', weights: 'int4', input_tokens: 7168, output_tokens: 1024, hardware: 'nvidia-rtx-4090' }),
  training_estimate: JSON.stringify({ model: 'qwen2.5-7b-instruct', task: 'training', training: { method: 'qlora', seq_len: 4096, gradient_checkpointing: true } }),
  recommend: JSON.stringify({ model: 'qwen2.5-7b-instruct', weights: 'int4', input_tokens: 7168, output_tokens: 1024 }),
};

function median(fn, runs) {
  for (let i = 0; i < 3; i++) fn();  // warm-up
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const rows = [
  ['module start-up (instantiate)', startup],
  ['estimate (JSON edge)', median(() => core.estimate(requests.estimate), 50)],
  ['estimate with hardware', median(() => core.estimate(requests.estimate_with_hardware), 20)],
  ['training estimate (QLoRA)', median(() => core.estimate(requests.training_estimate), 50)],
  ['recommend (whole catalog)', median(() => core.recommend(requests.recommend), 20)],
  ['listModels', median(() => core.listModels(), 5)],
  ['listHardware', median(() => core.listHardware(), 5)],
];
console.log('| WASM call (Node ' + process.version + ') | median ms |');
console.log('|---|---:|');
for (const [name, ms] of rows) console.log(`| ${name} | ${ms.toFixed(3)} |`);
