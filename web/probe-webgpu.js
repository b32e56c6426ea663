// SPDX-License-Identifier: MIT
/**
 * The WebGPU probe: what this browser's GPU delivers, in the measured-data format of the native probe
 * (data/schema/measured.schema.json, schema_version 1): adapter info and limits, compute-shader memory
 * bandwidth (a copy kernel and copyBufferToBuffer), and a tiled fp32 matmul. Standalone ES module.
 *
 *   import { runWebGpuProbe, toJsonText } from './probe-webgpu.js';
 *   const file = await runWebGpuProbe(navigator.gpu, { quick: true });
 *   download(toJsonText(file));  // sorted keys, 2-space indent, trailing newline
 *
 * Timing is wall-clock around queue submission and onSubmittedWorkDone() (timestamp queries are often
 * disabled), so each sample repeats the work long enough for the browser's coarse timer.
 */

export const SCHEMA_VERSION = 1;
export const PROBE_NAME = 'llmsizer-webgpu-probe';
export const PROBE_VERSION = '0.1.0';

const MiB = 1024 * 1024;

const COPY_SHADER = /* wgsl */ `
@group(0) @binding(0) var<storage, read> src: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4<f32>>;
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  let stride = groups.x * 256u;
  let n = arrayLength(&src);
  for (var i = gid.x; i < n; i = i + stride) {
    dst[i] = src[i];
  }
}`;

// C = A * B for n x n row-major matrices, 16 x 16 tiles staged in workgroup memory.
const MATMUL_SHADER = /* wgsl */ `
struct Dims { n: u32 }
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
@group(0) @binding(3) var<uniform> dims: Dims;
var<workgroup> tile_a: array<array<f32, 16>, 16>;
var<workgroup> tile_b: array<array<f32, 16>, 16>;
@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let n = dims.n;
  let row = gid.y;
  let col = gid.x;
  var acc = 0.0;
  for (var t = 0u; t < n; t = t + 16u) {
    tile_a[lid.y][lid.x] = a[row * n + t + lid.x];
    tile_b[lid.y][lid.x] = b[(t + lid.y) * n + col];
    workgroupBarrier();
    for (var k = 0u; k < 16u; k = k + 1u) {
      acc = acc + tile_a[lid.y][k] * tile_b[k][lid.x];
    }
    workgroupBarrier();
  }
  c[row * n + col] = acc;
}`;

/** `x` rounded to `digits` significant digits, as the native probe writes its numbers. */
export function roundSignificant(x, digits = 5) {
  if (x === 0 || !Number.isFinite(x)) return x;
  const scale = 10 ** (digits - 1 - Math.floor(Math.log10(Math.abs(x))));
  return Math.round(x * scale) / scale;
}

/** Median, mean, sample standard deviation (n - 1), min and max of a non-empty array. */
export function summarize(samples) {
  const sorted = [...samples].sort((p, q) => p - q);
  const n = sorted.length;
  const mean = sorted.reduce((s, x) => s + x, 0) / n;
  const median = n % 2 ? sorted[(n - 1) / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
  const variance = n > 1 ? sorted.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1) : 0;
  return {
    median: roundSignificant(median),
    mean: roundSignificant(mean),
    stddev: roundSignificant(Math.sqrt(variance), 3),
    min: roundSignificant(sorted[0]),
    max: roundSignificant(sorted[n - 1]),
  };
}

/** Lower-case letters, digits and single dashes. */
export function slug(text) {
  const s = String(text).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  return s || 'unknown';
}

/** A copy of `value` with every object's keys sorted (the file format's stable key order). */
export function sortKeys(value) {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    const out = {};
    for (const key of Object.keys(value).sort()) out[key] = sortKeys(value[key]);
    return out;
  }
  return value;
}

/** The file's text: sorted keys, 2-space indent, trailing newline. */
export function toJsonText(doc) {
  return `${JSON.stringify(sortKeys(doc), null, 2)}\n`;
}

function result(name, unit, inputs, samples) {
  return {
    name,
    device: 'webgpu0',
    unit,
    inputs,
    samples: samples.map((x) => roundSignificant(x)),
    summary: summarize(samples),
  };
}

async function collectSamples(warmup, count, once) {
  for (let i = 0; i < warmup; i += 1) await once();
  const samples = [];
  for (let i = 0; i < count; i += 1) samples.push(await once());
  return samples;
}

/** Milliseconds from submitting `encodeInto(encoder)`'s commands until the GPU reports them done. */
async function timeSubmit(device, now, encodeInto) {
  const encoder = device.createCommandEncoder();
  encodeInto(encoder);
  const commands = encoder.finish();
  const start = now();
  device.queue.submit([commands]);
  await device.queue.onSubmittedWorkDone();
  return now() - start;
}

function storageBuffer(device, size, extraUsage = 0) {
  return device.createBuffer({ size, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST | extraUsage });
}

function patternFloats(count, seed) {
  const data = new Float32Array(count);
  let x = seed >>> 0;
  for (let i = 0; i < count; i += 1) {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    data[i] = (x % 2001) / 1000 - 1;
  }
  return data;
}

async function bandwidthTests(device, cfg, now) {
  const bytes = cfg.bandwidthBytes;
  const src = storageBuffer(device, bytes);
  const dst = storageBuffer(device, bytes);
  device.queue.writeBuffer(src, 0, patternFloats(bytes / 4, 2463534242));
  const pipeline = device.createComputePipeline({
    layout: 'auto',
    compute: { module: device.createShaderModule({ code: COPY_SHADER }), entryPoint: 'main' },
  });
  const bindGroup = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [{ binding: 0, resource: { buffer: src } }, { binding: 1, resource: { buffer: dst } }],
  });
  const workgroups = Math.min(cfg.maxWorkgroups, Math.ceil(bytes / 16 / 256));
  const common = { buffer_bytes: bytes, repeats_per_sample: cfg.repeats, warmup_runs: cfg.warmup, bytes_counted: 'read + write' };
  const kernel = await collectSamples(cfg.warmup, cfg.samples, async () => {
    const ms = await timeSubmit(device, now, (encoder) => {
      for (let r = 0; r < cfg.repeats; r += 1) {
        const pass = encoder.beginComputePass();
        pass.setPipeline(pipeline);
        pass.setBindGroup(0, bindGroup);
        pass.dispatchWorkgroups(workgroups);
        pass.end();
      }
    });
    return (2 * bytes * cfg.repeats) / (ms / 1e3) / 1e9;
  });
  const copy = await collectSamples(cfg.warmup, cfg.samples, async () => {
    const ms = await timeSubmit(device, now, (encoder) => {
      for (let r = 0; r < cfg.repeats; r += 1) encoder.copyBufferToBuffer(src, 0, dst, 0, bytes);
    });
    return (2 * bytes * cfg.repeats) / (ms / 1e3) / 1e9;
  });
  src.destroy();
  dst.destroy();
  return [
    result('webgpu.copy_kernel', 'GB/s', { ...common, workgroups, workgroup_size: 256, element: 'vec4<f32>' }, kernel),
    result('webgpu.copy_buffer', 'GB/s', { ...common, method: 'copyBufferToBuffer' }, copy),
  ];
}

async function readBack(device, buffer, bytes) {
  const staging = device.createBuffer({ size: bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const encoder = device.createCommandEncoder();
  encoder.copyBufferToBuffer(buffer, 0, staging, 0, bytes);
  device.queue.submit([encoder.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const out = new Float32Array(staging.getMappedRange().slice(0));
  staging.unmap();
  staging.destroy();
  return out;
}

async function matmulTest(device, cfg, now) {
  const n = cfg.matmulN;
  const bytes = n * n * 4;
  const hostA = patternFloats(n * n, 88675123);
  const hostB = patternFloats(n * n, 521288629);
  const a = storageBuffer(device, bytes);
  const b = storageBuffer(device, bytes);
  const c = storageBuffer(device, bytes);
  const dims = device.createBuffer({ size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(a, 0, hostA);
  device.queue.writeBuffer(b, 0, hostB);
  device.queue.writeBuffer(dims, 0, new Uint32Array([n, 0, 0, 0]));
  const pipeline = device.createComputePipeline({
    layout: 'auto',
    compute: { module: device.createShaderModule({ code: MATMUL_SHADER }), entryPoint: 'main' },
  });
  const bindGroup = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [a, b, c, dims].map((buffer, binding) => ({ binding, resource: { buffer } })),
  });
  const encode = (encoder, repeats) => {
    for (let r = 0; r < repeats; r += 1) {
      const pass = encoder.beginComputePass();
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, bindGroup);
      pass.dispatchWorkgroups(n / 16, n / 16);
      pass.end();
    }
  };
  // Check one row against the CPU so a broken shader cannot report a speed.
  await timeSubmit(device, now, (encoder) => encode(encoder, 1));
  const gpuRow = (await readBack(device, c, n * 4)).subarray(0, n);
  for (const col of [0, n >> 1, n - 1]) {
    let expected = 0;
    for (let k = 0; k < n; k += 1) expected += hostA[k] * hostB[k * n + col];
    if (Math.abs(gpuRow[col] - expected) > 1e-3 * (1 + Math.abs(expected))) {
      throw new Error(`WebGPU matmul gave C[0][${col}] = ${gpuRow[col]}, expected ${expected}`);
    }
  }
  const flops = 2 * n * n * n;
  const samples = await collectSamples(cfg.warmup, cfg.samples, async () => {
    const ms = await timeSubmit(device, now, (encoder) => encode(encoder, cfg.matmulRepeats));
    return (flops * cfg.matmulRepeats) / (ms / 1e3) / 1e9;
  });
  for (const buffer of [a, b, c, dims]) buffer.destroy();
  return result('webgpu.matmul.fp32', 'GFLOP/s', {
    m: n, n, k: n, tile: 16, repeats_per_sample: cfg.matmulRepeats, warmup_runs: cfg.warmup,
    flops_counted: '2*m*n*k', kernel: 'WGSL 16x16 workgroup-tiled, fp32 accumulate',
  }, samples);
}

const LIMIT_NAMES = [
  'maxBufferSize', 'maxStorageBufferBindingSize', 'maxComputeWorkgroupStorageSize',
  'maxComputeInvocationsPerWorkgroup', 'maxComputeWorkgroupSizeX', 'maxComputeWorkgroupsPerDimension',
  'maxStorageBuffersPerShaderStage', 'maxUniformBufferBindingSize',
];

/**
 * Runs the probe on `navigatorGpu` (navigator.gpu) and resolves to a measured-data document.
 * options: quick (smaller and fewer samples), id, gitCommit, version, userAgent, hardwareConcurrency,
 * platform, now (a millisecond clock, default performance.now). Rejects when WebGPU is unavailable.
 */
export async function runWebGpuProbe(navigatorGpu, options = {}) {
  if (!navigatorGpu) throw new Error('WebGPU is not available in this browser (navigator.gpu is missing)');
  const nav = globalThis.navigator || {};
  const now = options.now || (() => performance.now());
  const quick = Boolean(options.quick);
  const startedAt = new Date();
  const start = now();

  const adapter = await navigatorGpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) throw new Error('WebGPU is available but no adapter was offered');
  const info = adapter.info || (adapter.requestAdapterInfo ? await adapter.requestAdapterInfo() : {});
  const limits = {};
  for (const name of LIMIT_NAMES) if (adapter.limits[name] !== undefined) limits[name] = Number(adapter.limits[name]);
  const device = await adapter.requestDevice({
    requiredLimits: {
      maxBufferSize: adapter.limits.maxBufferSize,
      maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
    },
  });
  const maxBinding = Math.min(limits.maxStorageBufferBindingSize, limits.maxBufferSize);
  const cfg = {
    warmup: 1,
    samples: quick ? 3 : 7,
    repeats: quick ? 2 : 5,
    // Far above GPU caches; the largest power of two the limits allow, up to 16 / 256 MiB.
    bandwidthBytes: Math.min(quick ? 16 * MiB : 256 * MiB, 2 ** Math.floor(Math.log2(maxBinding))),
    maxWorkgroups: Math.min(limits.maxComputeWorkgroupsPerDimension || 65535, 4096),
    matmulN: quick ? 256 : 1024,
    matmulRepeats: quick ? 2 : 4,
  };

  const name = info.description || [info.vendor, info.architecture, info.device].filter(Boolean).join(' ') || 'unknown WebGPU adapter';
  const results = [];
  const skipped = [];
  try {
    results.push(...(await bandwidthTests(device, cfg, now)));
  } catch (e) {
    skipped.push({ name: 'webgpu.bandwidth', skip_reason: String(e && e.message ? e.message : e) });
  }
  try {
    results.push(await matmulTest(device, cfg, now));
  } catch (e) {
    skipped.push({ name: 'webgpu.matmul.fp32', skip_reason: String(e && e.message ? e.message : e) });
  }
  device.destroy();
  if (!results.length) throw new Error(`WebGPU probe measured nothing: ${skipped.map((s) => s.skip_reason).join('; ')}`);

  const byName = Object.fromEntries(results.map((r) => [r.name, r]));
  const bandwidth = results.filter((r) => r.unit === 'GB/s').sort((p, q) => q.summary.median - p.summary.median)[0];
  const webgpu = {
    device: 'webgpu0',
    name,
    max_buffer_size_bytes: limits.maxBufferSize,
    max_storage_buffer_binding_size_bytes: limits.maxStorageBufferBindingSize,
    matmul_tflops: {},
  };
  if (bandwidth) {
    webgpu.memory_bandwidth_gb_per_s = bandwidth.summary.median;
    webgpu.memory_bandwidth_source = bandwidth.name;
  }
  if (byName['webgpu.matmul.fp32']) {
    webgpu.matmul_tflops.fp32 = roundSignificant(byName['webgpu.matmul.fp32'].summary.median / 1e3);
  }
  const userAgent = options.userAgent || nav.userAgent || 'unknown';
  const threads = options.hardwareConcurrency || nav.hardwareConcurrency || null;
  return {
    schema_version: SCHEMA_VERSION,
    id: options.id || `webgpu-${slug(name)}`,
    probe: {
      name: PROBE_NAME,
      version: options.version || PROBE_VERSION,
      git_commit: options.gitCommit || 'unknown',
      argv: [`quick=${quick}`],
      quick,
      runtime_s: roundSignificant((now() - start) / 1e3, 3),
      user_agent: userAgent,
    },
    timestamp_utc: startedAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    host: {
      // A page cannot read the CPU model, core count or RAM; the schema allows null where unknowable.
      cpu_model: 'unknown (browser)',
      cores: null,
      threads,
      ram_total_bytes: null,
      ram_available_bytes: null,
      caches: [],
      os: options.platform || (nav.userAgentData && nav.userAgentData.platform) || nav.platform || 'unknown',
      compiler: `browser: ${userAgent}`,
    },
    devices: [{
      id: 'webgpu0',
      kind: 'webgpu',
      name,
      vendor: info.vendor || '',
      architecture: info.architecture || '',
      description: info.description || '',
      features: [...adapter.features].sort(),
      limits,
    }],
    results,
    skipped,
    summary: { primary: 'webgpu', webgpu },
  };
}
