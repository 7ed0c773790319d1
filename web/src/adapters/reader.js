// The page's side of the reader worker (reader.js beside index.html): one
// worker, started on the first call, each call answered by its id.
let worker;
let next = 0;
const waiting = new Map();

function start() {
  const w = new Worker(new URL('reader.js', document.baseURI), { type: 'module' });
  w.addEventListener('message', ({ data }) => {
    const call = waiting.get(data.id);
    waiting.delete(data.id);
    if (call && 'json' in data) call.resolve(data.json);
    else if (call) call.reject(data.error);
  });
  // The worker could not start (its module or the API's failed to load):
  // every waiting call fails, and the next one tries a new worker.
  w.addEventListener('error', (e) => {
    for (const call of waiting.values()) call.reject(e.message || 'the reader did not start');
    waiting.clear();
    worker = undefined;
  });
  return w;
}

export function read(name, args) {
  worker ??= start();
  return new Promise((resolve, reject) => {
    next += 1;
    waiting.set(next, { resolve, reject });
    worker.postMessage({ id: next, name, args });
  });
}
