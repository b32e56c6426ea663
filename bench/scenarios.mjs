// SPDX-License-Identifier: MIT
// The page's scenarios, each a view the page offers as its state (web/lib/state.js over the core's
// defaults), for the benchmark's timed calls (bench/run.mjs: the request the page sends for that view)
// and for the page's edits in headless Chromium (bench/page.mjs: the view opened by its share link).
import { loadPageCore } from '../tests/js/load_core.mjs';

/** [{name, call, runs, state}]: the view `state`; `call` the core call the benchmark times ('recommend':
 *  the view's ranking of devices, recommendRequest(state, 10), rather than its estimate). */
export async function pageScenarios(webDir) {
  const { defaults } = await import('../web/lib/state.js');
  const core = await loadPageCore(webDir);
  const pageDefaults = defaults(JSON.parse(core.listOptions()).defaults);
  const view = (changes) => ({ ...pageDefaults, ...changes });
  const llamaCpp = view({ engine: 'llama.cpp', weights: 'q4_k_m', input_tokens: 3072, output_tokens: 1024, hardware: 'nvidia-rtx-4090' });
  const qlora = view({ task: 'training', method: 'qlora', seq_len: 4096, micro_batch: 4, hardware: 'nvidia-rtx-4090' });
  const scenario = (name, call, runs, state) => ({ name, call, runs, state });
  return { core, scenarios: [
    scenario('scenario: generic engine (the default view)', 'estimate', 40, pageDefaults),
    scenario('scenario: llama.cpp, Qwen2.5-7B Q4_K_M, 4k, RTX 4090', 'estimate', 20, llamaCpp),
    scenario('scenario: Ollama, Llama-3.1-8B Q4_K_M, 8k, RTX 4060', 'estimate', 20, view({ model: 'llama-3.1-8b-instruct', engine: 'ollama', weights: 'q4_k_m', input_tokens: 7168, output_tokens: 1024, hardware: 'nvidia-rtx-4060' })),
    scenario('scenario: transformers, Qwen2.5-7B bf16, 6k, A100 80GB', 'estimate', 20, view({ engine: 'transformers', input_tokens: 5120, output_tokens: 1024, hardware: 'nvidia-a100-80gb-sxm' })),
    scenario('scenario: QLoRA, Qwen2.5-7B, 4k × 4, RTX 4090', 'estimate', 20, qlora),
    scenario('scenario: the training ranking (QLoRA 7B, best 10)', 'recommend', 10, qlora),
    scenario('scenario: recommend, llama.cpp Q4_K_M, best 10', 'recommend', 10, llamaCpp),
  ] };
}
