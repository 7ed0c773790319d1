// The file readers, off the page's thread. The page starts this worker the
// first time it is handed a file or opens the market: the readers are the
// JS API module (api/), which the page's own bundle would otherwise have to
// carry, and a big price sheet read here leaves the page responsive.
import init, * as api from './api/gpuplan.js';

// The API functions the page asks for; nothing else is called by name.
const READERS = new Set(['importOffers', 'exportOffers', 'importConfig', 'importGguf', 'importSafetensors', 'readMeasured']);

const ready = init();

addEventListener('message', async ({ data: { id, name, args } }) => {
  try {
    if (!READERS.has(name)) throw new Error(`no reader ${name}`);
    await ready;
    const answer = api[name](...args);
    postMessage({ id, json: JSON.stringify(answer) });
  } catch (e) {
    postMessage({ id, error: String(e?.message ?? e) });
  }
});
