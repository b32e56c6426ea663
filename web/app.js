// Minimal page: renders what the core answers. Every number comes from the WASM module.
import createCore from './llmsizer.js';

const qs = (id) => document.getElementById(id);
const core = await createCore();
const options = JSON.parse(core.listOptions());
const models = JSON.parse(core.listModels());

function fill(select, items, value) {
  for (const item of items) {
    const option = document.createElement('option');
    option.value = item.id ?? item;
    option.textContent = item.name ?? item;
    select.append(option);
  }
  select.value = value;
}
fill(qs('model'), models.models || [], 'qwen2.5-7b-instruct');
fill(qs('weights'), options.weights, 'bf16');
fill(qs('engine'), options.engines, 'generic');

function render() {
  const request = {
    model: qs('model').value,
    weights: qs('weights').value,
    engine: qs('engine').value,
    input_tokens: Number(qs('input_tokens').value),
    output_tokens: Number(qs('output_tokens').value),
    batch: Number(qs('batch').value),
  };
  const response = JSON.parse(core.estimate(JSON.stringify(request)));
  const result = qs('result');
  result.replaceChildren();
  if (response.error) {
    qs('status').textContent = `${response.error.field}: ${response.error.message}`;
    qs('status').className = 'error';
    return;
  }
  qs('status').textContent = 'Ready';
  qs('status').className = '';
  const table = document.createElement('table');
  for (const line of response.explain) {
    const row = table.insertRow();
    row.insertCell().textContent = line.part;
    const cell = row.insertCell();
    cell.textContent = (line.bytes / 1e9).toFixed(2) + ' GB';
    cell.dataset.part = line.part;
    row.insertCell().textContent = `${line.formula}: ${line.values}`;
  }
  const total = document.createElement('p');
  total.id = 'total';
  total.textContent = `Device memory: ${(response.memory.device_bytes / 1e9).toFixed(2)} GB (GB = 10^9 bytes)`;
  result.append(total, table);
}
qs('form').addEventListener('input', render);
render();
