// Writes tests/corpus/requests.jsonl: a fixed corpus of about 6,000 requests that pins the core's
// answers while the JSON edge is rebuilt. Each line is {"fn": "estimate"|"recommend",
// "body": "<request text>"}; the body is a string so that malformed requests can be kept as sent.
// Deterministic: the same file every run (no clock, no randomness but a fixed-seed generator).
// usage: node tests/corpus/make_corpus.mjs > tests/corpus/requests.jsonl
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const presets = readdirSync(join(root, 'data', 'models')).filter((f) => f.endsWith('.json') && f !== 'index.json')
  .map((f) => f.replace(/\.json$/, '')).sort();

// A small fixed-seed generator (mulberry32) picks the variants, so the corpus covers the grid
// without being the full cross product.
let seed = 0x2545f491;
function random() {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (list) => list[Math.floor(random() * list.length)];

const engines = ['generic', 'transformers', 'vllm', 'llama.cpp'];
// One or two formats of each family the core knows (plain, bitsandbytes, GPTQ/AWQ, FP8, MXFP4, MLX, GGUF).
const formatFamilies = [
  ['bf16', 'fp16', 'fp32'], ['int8', 'int4'], ['nf4', 'nf4-dq', 'fp4', 'llm-int8'], ['gptq-int4', 'gptq-int8', 'gptq-int3', 'awq-int4'],
  ['fp8', 'fp8-channel', 'fp8-block', 'fp8-e5m2'], ['mxfp4'], ['mlx-4bit', 'mlx-8bit', 'mlx-3bit', 'mlx-6bit'],
  ['q4_k_m', 'q8_0', 'q5_k_m', 'q6_k', 'q4_0', 'iq4_xs', 'q3_k_m', 'q2_k', 'iq2_xxs', 'gguf-f16', 'mxfp4_moe', 'q2_k_2023', 'tq1_0'],
];
const kvTypes = ['bf16', 'fp16', 'fp8', 'q8_0', 'q4_0', 'fp32', 'iq4_nl'];
// Hardware of every kind: desktop GPU, datacenter GPU, CPU, laptop (discrete and Apple), instance,
// Apple GPU, AMD/Intel, a probe file's entry.
const hardwareByKind = {
  gpu: ['nvidia-rtx-4090', 'nvidia-rtx-3060-12gb', 'nvidia-h100-sxm', 'nvidia-a100-80gb-sxm', 'nvidia-l4', 'nvidia-t4', 'amd-mi300x', 'nvidia-rtx-5090', 'intel-arc-a770-16gb'],
  apple: ['apple-m4-max', 'apple-m2', 'apple-m3-ultra'],
  cpu: ['amd-ryzen-9-7950x', 'intel-xeon-6980p', 'amd-ryzen-ai-max-plus-395', 'measured-probe-intel-r-xeon-r-processor-2t'],
  laptop: ['macbook-air-m3', 'rtx-4090-laptop', 'macbook-pro-m4-max', 'rtx-4060-laptop'],
  instance: ['aws-g5.xlarge', 'aws-p4d.24xlarge', 'runpod-1x-nvidia-h100-sxm', 'gcp-g2-standard-4', 'aws-g5.12xlarge', 'aws-inf2.xlarge', 'lambda-gpu_1x_a100'],
};
const contexts = [[1, 2048], [1024, 1024], [4096, 512], [32768, 1024], [128, 16], [8192, 8192], [100000, 1000]];
const batches = [1, 1, 1, 4, 16, 64];

const lines = [];
const add = (fn, body) => lines.push(JSON.stringify({ fn, body: typeof body === 'string' ? body : JSON.stringify(body) }));

// 1. Every preset × engine × format family (inference, no hardware): 65 × 4 × 8 ≈ 2,080.
for (const model of presets) {
  for (const engine of engines) {
    for (const family of formatFamilies) {
      const [input_tokens, output_tokens] = pick(contexts);
      const r = { model, engine, weights: pick(family), input_tokens, output_tokens, batch: pick(batches) };
      const roll = random();
      if (roll < 0.15) r.kv_cache = pick(kvTypes);
      else if (roll < 0.25) r.gpus = pick([0, 2, 4, 8]);
      else if (roll < 0.3) r.flash_attention = false;
      if (engine === 'transformers' && random() < 0.2) r.engine_version = pick(['4.38', '4.44', '4.46.0']);
      add('estimate', r);
    }
  }
}

// 2. Every preset × hardware kind (inference with a device): 65 × 5 kinds × 2 ≈ 650 (+ Apple).
for (const model of presets) {
  for (const [kind, ids] of Object.entries(hardwareByKind)) {
    for (let i = 0; i < 2; i++) {
      const [input_tokens, output_tokens] = pick(contexts);
      const r = { model, engine: pick(engines), weights: pick(pick(formatFamilies)), input_tokens, output_tokens, batch: pick(batches), hardware: pick(ids) };
      if (kind === 'cpu' || random() < 0.1) r.gpus = kind === 'cpu' ? 0 : pick([0, 1, 2]);
      if (random() < 0.15) r.cost = { lifetime_years: pick([2, 3, 5]), hours_per_day: pick([4, 8, 24]), electricity_usd_per_kwh: pick([0.1, 0.3]) };
      if (random() < 0.1) r.cpu = pick(hardwareByKind.cpu.slice(0, 3));
      if (r.engine === 'vllm' && random() < 0.3) r.enforce_eager = true;
      add('estimate', r);
    }
  }
}

// 3. Training: every preset × method × two settings ≈ 520, a third of them with hardware.
const methods = ['full', 'freeze', 'lora', 'qlora'];
const optimizers = ['adamw', 'adamw-8bit', 'paged-adamw-8bit', 'paged-adamw', 'sgd', 'sgd-momentum', 'adafactor', 'lion'];
const precisions = ['mixed-bf16', 'mixed-fp16', 'bf16', 'fp32'];
const targetSets = [undefined, 'attention', 'all-linear', ['q_proj', 'v_proj'], ['q_proj', 'k_proj', 'v_proj', 'o_proj', 'gate_proj', 'up_proj', 'down_proj']];
for (const model of presets) {
  for (const method of methods) {
    for (let i = 0; i < 2; i++) {
      const training = { method, optimizer: pick(optimizers), precision: pick(precisions), seq_len: pick([512, 2048, 4096, 8192]),
                         micro_batch: pick([1, 1, 2, 8]), gradient_checkpointing: pick([true, false, 'selective']) };
      if (method === 'lora' || method === 'qlora') {
        training.lora_rank = pick([8, 16, 64]);
        const targets = pick(targetSets);
        if (targets !== undefined) training.lora_targets = targets;
        if (random() < 0.2) training.dora = true;
        if (random() < 0.2) training.adapter_dtype = 'base';
      }
      if (method === 'qlora') training.quantization = pick(['nf4', 'nf4-no-double-quant', 'gptq-int4']);
      if (method === 'freeze') training.trainable_layers = pick([1, 2, 4]);
      const r = { model, task: 'training', training };
      const roll = random();
      if (roll < 0.2) { r.gpus = pick([2, 4, 8]); training.zero_stage = pick([0, 1, 2, 3]); if (training.zero_stage > 0 && random() < 0.3) training.offload_optimizer = true; }
      else if (roll < 0.3) { r.gpus = 1; training.zero_stage = pick([2, 3]); }
      if (random() < 0.35) r.hardware = pick([...hardwareByKind.gpu, ...hardwareByKind.instance, 'rtx-4090-laptop']);
      if (random() < 0.3) { training.dataset_tokens = pick([1e6, 1e7, 1e9]); training.epochs = pick([1, 3]); }
      if (random() < 0.1) { training.chunked_loss = true; training.packing = true; }
      add('estimate', r);
    }
  }
}

// 4. Recommend: every preset × 3 settings (goals, formats, contexts) ≈ 195.
const goals = ['best-value', 'cheapest', 'fastest', 'local', 'laptop'];
for (const model of presets) {
  for (let i = 0; i < 3; i++) {
    const [input_tokens, output_tokens] = pick(contexts);
    const r = { model, engine: pick(engines), weights: pick(pick(formatFamilies)), input_tokens, output_tokens, batch: pick(batches), goal: pick(goals) };
    if (random() < 0.2) r.cost = { hours_per_day: pick([4, 8]), electricity_usd_per_kwh: 0.3 };
    add('recommend', r);
  }
}

// 5. Models given by config and by parameter count, with and without hardware.
const configs = [
  { model_type: 'llama', hidden_size: 2048, num_hidden_layers: 16, num_attention_heads: 32, num_key_value_heads: 8, intermediate_size: 8192, vocab_size: 128256, tie_word_embeddings: true },
  { model_type: 'qwen2', hidden_size: 896, num_hidden_layers: 24, num_attention_heads: 14, num_key_value_heads: 2, intermediate_size: 4864, vocab_size: 151936, tie_word_embeddings: true, unknown_field: 1 },
  { model_type: 'mistral', hidden_size: 4096, num_hidden_layers: 32, num_attention_heads: 32, num_key_value_heads: 8, intermediate_size: 14336, vocab_size: 32000, sliding_window: 4096 },
];
for (const config of configs) {
  for (const engine of engines) {
    for (const weights of ['bf16', 'q4_k_m', 'nf4']) add('estimate', { model: { config }, engine, weights, input_tokens: 4096 });
    add('estimate', { model: { config }, engine, hardware: 'nvidia-rtx-4090' });
    add('recommend', { model: { config }, engine });
    add('estimate', { model: { config }, task: 'training', training: { method: 'lora' } });
  }
}
for (const params of [1.1e9, 7e9, 70e9, 405e9]) {
  for (const engine of engines) {
    add('estimate', { model: { params }, engine, weights: 'fp16' });
    add('estimate', { model: { params, layers: 32, hidden_size: 4096 }, engine, weights: 'int4' });
    add('estimate', { model: { params }, engine, hardware: 'nvidia-rtx-4090' });
    add('recommend', { model: { params }, engine });
    add('estimate', { model: { params }, task: 'training', training: { method: pick(methods) } });
  }
}
// Inline hardware objects and a probe document.
add('estimate', { model: 'qwen2.5-7b-instruct', hardware: { kind: 'gpu', memory_bytes: 25769803776, memory_bandwidth_gb_per_s: 1008, fp16_tensor_tflops_dense: 165 } });
add('estimate', { model: 'qwen2.5-7b-instruct', hardware: { kind: 'cpu', cores: 8, memory_bandwidth_gb_per_s: 60, ram_bytes: 34359738368 }, gpus: 0 });
add('estimate', { model: 'llama-3.1-8b-instruct', weights: 'q4_k_m', engine: 'llama.cpp', hardware: { kind: 'laptop', gpu_id: 'nvidia-rtx-4070', gpu_memory_bytes: 8589934592, memory_bandwidth_gb_per_s: 256 } });

// 6. Bad requests: one bad field each (every field the request reads), then two bad fields (the
// error names the first one read).
const good = { model: 'qwen2.5-7b-instruct' };
const badValues = {
  model: ['no-such-model', 42, { config: { hidden_size: 'big' } }, { params: 1e30 }, { params: 7e9, layers: 32 }, {}, [1]],
  task: ['inference-ish', 3], weights: ['int3', 5, 'F16', 'f16'], kv_cache: ['int2', true], engine: ['ollama', 'sglang', 1],
  input_tokens: [-5, 0, 1.5, 'many', 1e12], output_tokens: [-1, 1e8, 'x'], batch: [0, 1e12, -3], gpus: [-1, 5000, 1.5],
  flash_attention: ['yes', 1], engine_version: ['four', '4', '400.1', 4.38], group_size: [100, 'x'], hardware: ['no-such-gpu', 7, { kind: 'tpu' }, { kind: 'gpu' }],
  goal: ['cheap', 3], cost: [5, { lifetime_years: 100 }, { electricity_usd_per_kwh: -1 }], cpu: ['nvidia-rtx-4090', 3], enforce_eager: ['no'],
};
for (const [field, values] of Object.entries(badValues)) {
  for (const value of values) {
    add('estimate', { ...good, [field]: value });
    if (['goal', 'cost'].includes(field)) add('recommend', { ...good, [field]: value });
  }
}
for (const weights of ['gptq-int4', 'awq-int4', 'bf16']) add('estimate', { ...good, weights, group_size: 64 });
add('estimate', { ...good, weights: 'gptq-int4', group_size: -1 });
const badTraining = {
  method: ['dpo', 1], optimizer: ['adam2'], precision: ['fp8'], seq_len: [0, -1, 'long'], micro_batch: [0], gradient_accumulation: [0],
  gradient_checkpointing: ['sometimes'], lora_rank: [0, 1e9], lora_targets: [5, ['nope'], [3], 'everything'], lora_dropout: [1.5],
  quantization: ['int2'], trainable_layers: [0, 1000], zero_stage: [4, -1], offload_optimizer: ['x'], dataset_tokens: [-1], epochs: [-2], mfu: [2],
};
for (const [field, values] of Object.entries(badTraining)) {
  for (const value of values) add('estimate', { ...good, task: 'training', training: { method: 'lora', [field]: value } });
}
add('estimate', { ...good, task: 'training', training: { zero_stage: 0, offload_optimizer: true } });
add('estimate', { ...good, task: 'training', gpus: 0, training: { zero_stage: 2 } });
add('estimate', { ...good, task: 'training', training: { zero_stage: 2, offload_params: true } });
add('estimate', { ...good, task: 'training', training: 'lora' });
add('estimate', { ...good, task: 'training', hardware: 'amd-ryzen-9-7950x' });
add('estimate', { model: 'smollm2-135m', task: 'training', training: { method: 'lora', lora_targets: ['gate_proj'] } });
add('recommend', { ...good, task: 'training' });
// Two errors in one request: the first field read is named.
const fields = Object.keys(badValues);
for (let i = 0; i < fields.length; i++) {
  for (let j = i + 1; j < fields.length; j++) {
    if (fields[i] === 'model' || random() < 0.5) add('estimate', { model: fields[i] === 'model' ? 'no-such-model' : 'qwen2.5-7b-instruct', [fields[i]]: badValues[fields[i]][0], [fields[j]]: badValues[fields[j]][0] });
  }
}
for (const a of ['seq_len', 'lora_rank', 'zero_stage']) {
  add('estimate', { ...good, task: 'training', training: { method: 'lora', [a]: badTraining[a][0], optimizer: 'adam2' } });
}
// Malformed bodies and unknown fields.
for (const body of ['', '   ', '{not json', '[1,2,3]', 'null', '{"model": "qwen2.5-7b-instruct", "input_tokens": 1e999}',
  '{"model": "qwen2.5-7b-instruct",}', '"\\ud800"', '{"model":"\\u0000"}', '{"model": "QWEN2.5-7B-INSTRUCT"}', '{"modle": "qwen2.5-7b-instruct"}',
  '{"model": "qwen2.5-7b-instruct", "colour": "blue", "training": {"method": "lora"}}']) {
  add('estimate', body);
  add('recommend', body);
}

// 7. Fill to about 6,000 with random mixes of everything above (hardware, gpus, batch, kv types).
const allHardware = Object.values(hardwareByKind).flat();
while (lines.length < 6000) {
  const [input_tokens, output_tokens] = pick(contexts);
  const r = { model: pick(presets), engine: pick(engines), weights: pick(pick(formatFamilies)), input_tokens, output_tokens, batch: pick(batches) };
  if (random() < 0.3) r.kv_cache = pick(kvTypes);
  if (random() < 0.5) r.hardware = pick(allHardware);
  if (random() < 0.2) r.gpus = pick([0, 1, 2, 4, 8]);
  if (random() < 0.1) r.flash_attention = false;
  add(random() < 0.1 ? 'recommend' : 'estimate', r);
}
process.stdout.write(lines.join('\n') + '\n');
