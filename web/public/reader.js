// The file readers and writers, off the page's thread. The page starts this
// worker the first time it is handed a price sheet or asked for an export:
// they are the JS API module (api/), which the page's own bundle would
// otherwise have to carry, and a big sheet read here leaves the page responsive.
import init, * as api from './api/gpuplan.js';

// The API functions the page asks for; nothing else is called by name.
const READERS = new Set(['importOffers']);

// The file writers take the offers and items as a share link, which the
// page already writes: handing them over as JSON would put a JSON writer
// for offers into the page's bundle.
const WRITERS = {
  exportOffers(link) {
    const { cost } = api.decodeLink(link).plan;
    return api.exportOffers(cost.offers, cost.items);
  },
  exportOffersCsv(link) {
    return api.exportOffersCsv(api.decodeLink(link).plan.cost.offers);
  },
};

const ready = init();

addEventListener('message', async ({ data: { id, name, args } }) => {
  try {
    const call = READERS.has(name) ? api[name] : Object.hasOwn(WRITERS, name) ? WRITERS[name] : null;
    if (!call) throw new Error(`no reader ${name}`);
    await ready;
    const answer = call(...args);
    postMessage({ id, json: JSON.stringify(answer) });
  } catch (e) {
    postMessage({ id, error: String(e?.message ?? e) });
  }
});
