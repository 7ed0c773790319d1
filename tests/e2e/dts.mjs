// Reads the JS API's TypeScript declarations (the subset gpuplan.d.ts is
// written in) and checks JSON values against them, so the declarations stay
// true to what the wasm returns without a TypeScript compiler.

// Identifiers, string literals, numbers and punctuation; comments dropped.
function tokens(text) {
  const src = text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\/\/[^\n]*/g, ' ');
  return src.match(/'(?:[^'\\]|\\.)*'|[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*|\d+(?:\.\d+)?|=>|\S/g) ?? [];
}

// Recursive descent over the token list; type nodes are plain objects.
class Parser {
  constructor(list) { this.t = list; this.i = 0; }
  peek() { return this.t[this.i]; }
  next() { return this.t[this.i++]; }
  eat(tok) {
    if (this.peek() !== tok) throw new Error(`expected ${tok} at token ${this.i}, found ${this.peek()}`);
    this.i++;
  }
  type() {
    if (this.peek() === '|') this.next();
    const alts = [this.postfix()];
    while (this.peek() === '|') { this.next(); alts.push(this.postfix()); }
    return alts.length === 1 ? alts[0] : { union: alts };
  }
  postfix() {
    let node = this.primary();
    while (this.peek() === '[' && this.t[this.i + 1] === ']') { this.i += 2; node = { array: node }; }
    return node;
  }
  primary() {
    const tok = this.next();
    if (tok === '{') return this.members('}');
    if (tok === '(') { const inner = this.type(); this.eat(')'); return inner; }
    if (tok.startsWith("'")) return { literal: tok.slice(1, -1) };
    const args = [];
    if (this.peek() === '<') {
      this.next();
      args.push(this.type());
      while (this.peek() === ',') { this.next(); args.push(this.type()); }
      this.eat('>');
    }
    return { name: tok, args };
  }
  members(close) {
    const fields = {};
    let open = false;
    while (this.peek() !== close) {
      if (this.peek() === '[') {
        while (this.next() !== ']');
        this.eat(':');
        this.type();
        open = true;
      } else {
        const key = this.next();
        const optional = this.peek() === '?';
        if (optional) this.next();
        this.eat(':');
        fields[key] = { type: this.type(), optional };
      }
      if (this.peek() === ';' || this.peek() === ',') this.next();
    }
    this.eat(close);
    return { fields, open };
  }
  skipStatement() {
    let depth = 0;
    for (;;) {
      const tok = this.next();
      if (tok === undefined) return;
      if ('({['.includes(tok)) depth++;
      if (')}]'.includes(tok)) depth--;
      if (tok === ';' && depth === 0) return;
    }
  }
}

// { types: Map name -> node, functions: Set of exported function names }.
export function readDeclarations(text) {
  const p = new Parser(tokens(text));
  const types = new Map();
  const functions = new Set();
  while (p.peek() !== undefined) {
    p.eat('export');
    const kind = p.next();
    if (kind === 'interface') {
      const name = p.next();
      p.eat('{');
      types.set(name, p.members('}'));
    } else if (kind === 'type') {
      const name = p.next();
      if (p.peek() === '<') { p.skipStatement(); continue; }
      p.eat('=');
      types.set(name, p.type());
      p.eat(';');
    } else if (kind === 'function') {
      functions.add(p.next());
      p.skipStatement();
    } else if (kind === 'default') {
      p.eat('function');
      functions.add('default');
      p.skipStatement();
    } else {
      throw new Error(`unexpected export ${kind}`);
    }
  }
  return { types, functions };
}

// The mismatches of `value` against `node`, each as "path: what".
export function check(decl, node, value, path = '$') {
  if (node.union) {
    const each = node.union.map((alt) => check(decl, alt, value, path));
    return each.some((e) => e.length === 0) ? [] : [`${path}: ${JSON.stringify(value)?.slice(0, 80)} matches none of ${node.union.length} alternatives (${each.map((e) => e[0]).join(' / ')})`];
  }
  if (node.array) {
    if (!Array.isArray(value)) return [`${path}: not an array`];
    return value.flatMap((v, i) => check(decl, node.array, v, `${path}[${i}]`));
  }
  if ('literal' in node) return value === node.literal ? [] : [`${path}: ${JSON.stringify(value)} is not '${node.literal}'`];
  if (node.fields) return checkObject(decl, node, value, path);
  return checkNamed(decl, node, value, path);
}

function checkObject(decl, node, value, path) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [`${path}: not an object`];
  const out = [];
  for (const [key, { type, optional }] of Object.entries(node.fields)) {
    if (!(key in value)) {
      if (!optional) out.push(`${path}.${key}: missing`);
    } else {
      out.push(...check(decl, type, value[key], `${path}.${key}`));
    }
  }
  if (!node.open) {
    for (const key of Object.keys(value)) if (!(key in node.fields)) out.push(`${path}.${key}: not declared`);
  }
  return out;
}

function checkNamed(decl, node, value, path) {
  const is = (ok, what) => (ok ? [] : [`${path}: ${JSON.stringify(value)?.slice(0, 80)} is not ${what}`]);
  switch (node.name) {
    case 'string': return is(typeof value === 'string', 'a string');
    case 'number': return is(typeof value === 'number' && Number.isFinite(value), 'a finite number');
    case 'boolean': return is(typeof value === 'boolean', 'a boolean');
    case 'null': return is(value === null, 'null');
    case 'unknown': return [];
    case 'Record': return is(value !== null && typeof value === 'object' && !Array.isArray(value), 'an object');
  }
  const target = decl.types.get(node.name);
  if (!target) return [`${path}: no declaration of ${node.name}`];
  return check(decl, target, value, path);
}

// Checks `value` against the declared type `name`; returns the mismatches.
export function conforms(decl, name, value) {
  return check(decl, { name, args: [] }, value);
}
