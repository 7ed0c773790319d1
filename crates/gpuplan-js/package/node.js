// The package's entry under Node: the same module as in a browser, whose
// init() reads the wasm from disk when given nothing (Node's fetch cannot
// read file: URLs).
import { readFile } from 'node:fs/promises';
import init from './gpuplan.js';

export * from './gpuplan.js';

export default function initNode(input) {
  return init(input ?? { module_or_path: readFile(new URL('./gpuplan_bg.wasm', import.meta.url)) });
}
