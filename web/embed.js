// SPDX-License-Identifier: MIT
// The compact view for an <iframe>: the model and settings come from the URL (the same parameters
// as the full page's share links), the core answers, and this renders the total, the verdict and the
// parts, with a link to the full page holding the same settings.
import { startSession } from './lib/session.js';
import { toParams, toRequest } from './lib/state.js';
import { el, renderBreakdown, renderVerdict, verdictOf } from './lib/view.js';

const $ = (id) => document.getElementById(id);
const S = await startSession();
const { state, t, f } = S;
document.documentElement.lang = S.lang;
document.title = t('title');

let response = S.firstResponse;
if (response.error) response = S.call('estimate', JSON.stringify(toRequest(S.base)));
const settings = [];
const training = state.task === 'training';
const serving = state.task === 'serve' && Boolean(response.serving);
settings.push(t(training ? 'task.training' : serving ? 'task.serve' : 'task.inference'));
settings.push(state.weights);
if (serving) {
  settings.push(state.serve_load === 'request_rate' ? t('serve.embedRate', { rate: f.sig(state.request_rate) }) : t('serve.embedLoad', { count: f.whole(state.concurrency) }));
  settings.push(t('unit.tokens', { value: f.whole(state.serve_input_tokens + state.serve_output_tokens) }));
} else if (training) settings.push(t('unit.tokens', { value: f.whole(state.seq_len) }));
else settings.push(t('unit.tokens', { value: f.whole(state.input_tokens + state.output_tokens) }));
if (!training && !serving && state.batch > 1) settings.push(`${t('field.batch')}: ${f.whole(state.batch)}`);
$('embed-title').textContent = state.config || state.file_model ? state.name || t('import.custom') : (response.model && response.model.name) || state.model;
$('embed-settings').textContent = settings.join(' · ');

if (S.notices.length) {
  const box = $('notice');
  box.hidden = false;
  box.textContent = t('notice.lead');
}
let hardwareName = state.hardware;
if (state.hardware !== 'budget') {
  const list = S.call('listHardware').hardware || [];
  const h = list.find((x) => x.id === state.hardware);
  hardwareName = h ? h.name || h.id : state.hardware;
}
const verdict = verdictOf(response, state, hardwareName);
if (serving) {
  // The Serve task: the GPUs needed and the core's sentence (lib/serve.js), over the memory of one GPU.
  const { renderServeVerdict } = await import('./lib/serve.js');
  renderServeVerdict($('verdict'), response, { t, f, gpuName: (response.hardware && response.hardware.name) || hardwareName });
} else {
  renderVerdict($('verdict'), response, verdict, { t, f });
}
renderBreakdown($('bar'), $('parts'), response, verdict, { t, f });
// A training run's parts do not all fit the documented 420 px frame: the table scrolls inside it
// (style.css), and says so: a line under it while the table is cut, and a fade at the cut edge until
// the table is scrolled to its end (a phone shows no scroll bar until one scrolls).
const scroller = document.querySelector('.parts-scroll');
const cue = $('parts-more');
cue.textContent = t('embed.scrollMore');
function showCue() {
  const overflows = scroller.scrollHeight > scroller.clientHeight + 1 || scroller.scrollWidth > scroller.clientWidth + 1;
  if (cue.hidden === overflows) cue.hidden = !overflows;  // the line takes room from the table: set first
  const below = scroller.scrollHeight - scroller.clientHeight - scroller.scrollTop > 1;
  scroller.classList.toggle('more', below);
}
scroller.addEventListener('scroll', showCue, { passive: true });
window.addEventListener('resize', showCue);
showCue();
const link = $('open-full');
link.href = `index.html#${toParams(state).toString()}`;
link.textContent = t('embed.open');
link.append(el('span', { cls: 'visually-hidden', text: ` ${t('embed.newWindow')}` }));
performance.mark('llmsizer:first-result');
document.body.dataset.ready = 'true';
