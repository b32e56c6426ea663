// SPDX-License-Identifier: MIT
// Which of the core's modules answers a request. The page's own (llmsizer.js) answers one model's
// inference and refuses serving and training with error.task.other_module, and models kept loaded
// beside it (`also_loaded`) with error.also_loaded.other_module (core/src/edge/request/parse_request.cpp),
// so the page asks it first and the tasks' module (lib/tasks_core.js) only after that refusal: which
// request is whose stays the core's rule, with no copy of it here.
const OTHER_MODULE = ['error.task.other_module', 'error.also_loaded.other_module'];

/** Whether `answer` (an estimate's, a ranking's or page_answer's, parsed) is the page's module's
 *  refusal of another module's request: its error, or the error of any of page_answer's parts. */
export function refusedForOtherModule(answer) {
  if (!answer || typeof answer !== 'object') return false;
  const parts = [answer, answer.estimate, answer.recommend, ...(answer.chart || []), ...(answer.formats || [])];
  return parts.some((p) => p && p.error && p.error.message_data && OTHER_MODULE.includes(p.error.message_data.id));
}
