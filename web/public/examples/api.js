// gpuplan's JS API without the UI: load the module, call estimate(plan).
// The plan may be partial: every missing field takes its default.
import init, { estimate, encodeLink, decodeLink } from '../api/gpuplan.js';

await init();
const plan = { task: 'infer', model: { kind: 'preset', id: 'llama-3.1-8b' }, inference: { context: 8192 } };
try {
  const report = estimate(plan, 'en');
  document.getElementById('peak').textContent = String(report.memory.per_gpu_bytes);
  document.getElementById('report').textContent = JSON.stringify(report, null, 2);
  window.gpuplanExample = { report, link: encodeLink(plan), decoded: decodeLink('?v=1&ctx=abc') };
} catch (e) {
  document.getElementById('report').textContent = JSON.stringify(e, null, 2);
}
