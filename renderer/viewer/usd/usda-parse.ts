// Parses a USDA text layer into its prims: specifier, type, name, metadata, attributes (with their
// interpolation and elementSize), relationships and children. It reads the whole USDA grammar's shape
// (metadata blocks, list ops, time samples, connections, dictionaries, paths, assets) but keeps only what
// the viewer uses: variant sets are skipped, references and payloads are recorded but not followed, and an
// attribute with only time samples takes its earliest sample. What the prims mean is usd-meshes.ts's job.
// Plain TypeScript with no DOM or Babylon imports: the unit tests run it in Node.

export type UsdValue =
  | number
  | string
  | boolean
  | null
  | UsdValue[]
  | { path: string }
  | { asset: string }
  | { dict: Record<string, UsdValue> };

export interface UsdAttribute {
  typeName: string;
  /** The default value, else the earliest time sample; undefined when only declared. */
  value: UsdValue | undefined;
  /** `.connect` target, if any. */
  connect?: string;
  uniform: boolean;
  /** From the attribute's metadata (primvars: constant, uniform, vertex, varying, faceVarying). */
  interpolation?: string;
  elementSize?: number;
}

export interface UsdPrim {
  specifier: 'def' | 'over' | 'class';
  /** The prim's schema type (Xform, Mesh, Scope, Material, Shader…), '' when untyped. */
  type: string;
  name: string;
  /** The prim's path in the layer, e.g. /model/mesh. */
  path: string;
  metadata: Record<string, UsdValue>;
  attributes: Map<string, UsdAttribute>;
  relationships: Map<string, string[]>;
  children: UsdPrim[];
}

export interface UsdLayer {
  /** The layer's metadata: upAxis, metersPerUnit, defaultPrim, doc… */
  metadata: Record<string, UsdValue>;
  prims: UsdPrim[];
}

export class UsdError extends Error {
  override name = 'UsdError';
}

export const USDC_IN_USDZ =
  'This USDZ holds a binary USD (USDC) layer, which the built-in reader cannot open. Open the GLB of the same job instead, or install the OpenUSD importer runtime (see README).';
export const USDC_FILE =
  'This file is a binary USD (USDC) layer, which the built-in reader cannot open. Open the GLB of the same job instead, or install the OpenUSD importer runtime (see README).';

const USDC_MAGIC = 'PXR-USDC';

/** Whether the bytes are a binary USD (crate) layer. */
export function isUsdc(bytes: Uint8Array): boolean {
  if (bytes.length < USDC_MAGIC.length) return false;
  for (let i = 0; i < USDC_MAGIC.length; i++) if (bytes[i] !== USDC_MAGIC.charCodeAt(i)) return false;
  return true;
}

/** A layer's bytes as USDA text; a USDC or anything else fails with a message a user can act on. */
export function layerText(bytes: Uint8Array, inPackage: boolean): string {
  if (isUsdc(bytes)) throw new UsdError(inPackage ? USDC_IN_USDZ : USDC_FILE);
  const text = new TextDecoder().decode(bytes);
  if (!/^\uFEFF?#usda\s/.test(text))
    throw new UsdError(
      `${inPackage ? 'The layer in this USDZ' : 'This file'} is not a USD text layer (it does not start with "#usda"), so the built-in reader cannot open it.`,
    );
  return text;
}

const LIST_OPS = new Set(['prepend', 'append', 'add', 'delete']);
const QUALIFIERS = new Set(['custom', 'uniform', 'varying', 'config']);
const SPECIFIERS = new Set(['def', 'over', 'class']);
const IDENT = /[A-Za-z_][A-Za-z0-9_:.]*/y;
const NUMBER = /[-+]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|inf|nan)/y;

export function parseUsda(text: string): UsdLayer {
  const r = new Reader(text);
  r.header();
  const layer: UsdLayer = { metadata: {}, prims: [] };
  if (r.peek() === '(') layer.metadata = r.metadata();
  for (;;) {
    const c = r.peek();
    if (c === '') break;
    const word = r.ident();
    if (SPECIFIERS.has(word)) layer.prims.push(r.prim(word as UsdPrim['specifier'], ''));
    else r.fail(`expected a prim (def, over or class), found "${word}"`);
  }
  return layer;
}

class Reader {
  pos = 0;
  text: string;
  constructor(text: string) {
    this.text = text;
  }

  fail(message: string): never {
    const line = this.text.slice(0, this.pos).split('\n').length;
    throw new UsdError(`The USD text layer could not be read: ${message} (line ${line}).`);
  }

  header() {
    if (this.text.charCodeAt(0) === 0xfeff) this.pos = 1;
    if (!this.text.startsWith('#usda', this.pos)) this.fail('it does not start with "#usda"');
    const eol = this.text.indexOf('\n', this.pos);
    this.pos = eol < 0 ? this.text.length : eol + 1;
  }

  /** Skips white space and comments; returns the next character ('' at the end). */
  peek(): string {
    const t = this.text;
    for (;;) {
      const c = t.charCodeAt(this.pos);
      if (c === 32 || c === 9 || c === 10 || c === 13 || c === 59 /* ; separates statements */) this.pos++;
      else if (c === 35 /* # */) {
        const eol = t.indexOf('\n', this.pos);
        this.pos = eol < 0 ? t.length : eol + 1;
      } else break;
    }
    return t[this.pos] ?? '';
  }

  eat(c: string): boolean {
    if (this.peek() !== c) return false;
    this.pos++;
    return true;
  }

  expect(c: string) {
    if (!this.eat(c))
      this.fail(`expected "${c}", found ${this.peek() ? `"${this.text.slice(this.pos, this.pos + 12)}"` : 'the end'}`);
  }

  ident(): string {
    this.peek();
    IDENT.lastIndex = this.pos;
    const m = IDENT.exec(this.text);
    if (!m)
      this.fail(`expected a name, found ${this.peek() ? `"${this.text.slice(this.pos, this.pos + 12)}"` : 'the end'}`);
    this.pos += m[0].length;
    return m[0];
  }

  string(): string {
    const t = this.text;
    const q = t[this.pos]!;
    const triple = t.startsWith(q.repeat(3), this.pos);
    const close = triple ? q.repeat(3) : q;
    this.pos += close.length;
    let out = '';
    for (;;) {
      if (this.pos >= t.length) this.fail('a string is not closed');
      if (t.startsWith(close, this.pos)) {
        this.pos += close.length;
        return out;
      }
      const c = t[this.pos++]!;
      if (c === '\\') {
        const e = t[this.pos++] ?? '';
        out += e === 'n' ? '\n' : e === 't' ? '\t' : e === 'r' ? '\r' : e;
      } else out += c;
    }
  }

  number(): number {
    NUMBER.lastIndex = this.pos;
    const m = NUMBER.exec(this.text);
    if (!m) this.fail('expected a number');
    this.pos += m[0].length;
    const s = m[0];
    if (s.endsWith('inf')) return s.startsWith('-') ? -Infinity : Infinity;
    if (s.endsWith('nan')) return NaN;
    return Number(s);
  }

  value(): UsdValue {
    const c = this.peek();
    if (c === '[' || c === '(') {
      const close = c === '[' ? ']' : ')';
      this.pos++;
      const items: UsdValue[] = [];
      while (!this.eat(close)) {
        items.push(this.value());
        if (!this.eat(',') && this.peek() !== close) this.fail(`expected "," or "${close}" in a list`);
      }
      return items;
    }
    if (c === '"' || c === "'") return this.string();
    if (c === '<') {
      const end = this.text.indexOf('>', this.pos);
      if (end < 0) this.fail('a path is not closed');
      const path = this.text.slice(this.pos + 1, end);
      this.pos = end + 1;
      return { path };
    }
    if (c === '@') {
      const close = this.text.startsWith('@@@', this.pos) ? '@@@' : '@';
      const end = this.text.indexOf(close, this.pos + close.length);
      if (end < 0) this.fail('an asset path is not closed');
      const asset = this.text.slice(this.pos + close.length, end);
      this.pos = end + close.length;
      // An asset may be followed by a prim path (references = @a.usda@</Root>).
      if (this.text[this.pos] === '<') this.value();
      return { asset };
    }
    if (c === '{') return this.dictionary();
    if (c === '-' || c === '+' || c === '.' || (c >= '0' && c <= '9')) return this.number();
    if (c === '') this.fail('expected a value, found the end');
    const word = this.ident();
    if (word === 'None') return null;
    if (word === 'true') return true;
    if (word === 'false') return false;
    if (word === 'inf') return Infinity;
    if (word === 'nan') return NaN;
    return word;
  }

  /** `{ type key = value … }` (metadata dictionaries) or `{ time: value, … }` (time samples, as [time, value] pairs). */
  dictionary(): UsdValue {
    this.expect('{');
    const c = this.peek();
    if (c === '-' || c === '+' || c === '.' || (c >= '0' && c <= '9')) {
      const samples: UsdValue[] = [];
      while (!this.eat('}')) {
        const time = this.number();
        this.expect(':');
        samples.push([time, this.value()]);
        this.eat(',');
      }
      return samples;
    }
    const dict: Record<string, UsdValue> = {};
    while (!this.eat('}')) {
      const first = this.peek() === '"' || this.peek() === "'" ? this.string() : this.ident();
      if (this.text.startsWith('[]', this.pos)) this.pos += 2;
      let key = first;
      if (this.peek() !== '=') key = this.peek() === '"' || this.peek() === "'" ? this.string() : this.ident();
      this.expect('=');
      dict[key] = this.value();
      this.eat(',');
    }
    return { dict };
  }

  /** `( key = value … )`: a layer's, a prim's or a property's metadata; a bare string is its doc. */
  metadata(): Record<string, UsdValue> {
    this.expect('(');
    const out: Record<string, UsdValue> = {};
    while (!this.eat(')')) {
      const c = this.peek();
      if (c === '"' || c === "'") {
        out.doc = this.string();
        continue;
      }
      let key = this.ident();
      if (LIST_OPS.has(key) || key === 'reorder') key = this.ident();
      out[key] = this.eat('=') ? this.value() : true;
    }
    return out;
  }

  /** Skips a balanced `{ … }` (strings inside may hold braces). */
  skipBlock() {
    this.expect('{');
    let depth = 1;
    while (depth > 0) {
      const c = this.peek();
      if (c === '') this.fail('a block is not closed');
      if (c === '"' || c === "'") this.string();
      else {
        if (c === '{') depth++;
        else if (c === '}') depth--;
        this.pos++;
      }
    }
  }

  prim(specifier: UsdPrim['specifier'], parent: string): UsdPrim {
    let type = '';
    if (this.peek() !== '"' && this.peek() !== "'") type = this.ident();
    if (this.peek() !== '"' && this.peek() !== "'") this.fail("expected the prim's name in quotes");
    const name = this.string();
    const prim: UsdPrim = {
      specifier,
      type,
      name,
      path: `${parent}/${name}`,
      metadata: {},
      attributes: new Map(),
      relationships: new Map(),
      children: [],
    };
    if (this.peek() === '(') prim.metadata = this.metadata();
    this.expect('{');
    while (!this.eat('}')) {
      if (this.peek() === '') this.fail(`the prim ${prim.path} is not closed`);
      let word = this.ident();
      if (SPECIFIERS.has(word)) {
        prim.children.push(this.prim(word as UsdPrim['specifier'], prim.path));
        continue;
      }
      if (word === 'variantSet') {
        this.string();
        this.expect('=');
        this.skipBlock();
        continue;
      }
      if (word === 'reorder') {
        this.ident();
        this.expect('=');
        this.value();
        continue;
      }
      if (LIST_OPS.has(word)) word = this.ident();
      if (word === 'custom') {
        const at = this.pos;
        if (this.ident() !== 'rel') this.pos = at;
        else word = 'rel';
      }
      if (word === 'rel') {
        this.relationship(prim);
        continue;
      }
      this.attribute(prim, word);
    }
    return prim;
  }

  relationship(prim: UsdPrim) {
    const name = this.ident();
    const base = name.replace(/\.(default|timeSamples)$/, '');
    const targets: string[] = prim.relationships.get(base) ?? [];
    if (this.eat('=')) {
      const v = this.value();
      for (const t of Array.isArray(v) ? v : [v]) if (t && typeof t === 'object' && 'path' in t) targets.push(t.path);
    }
    prim.relationships.set(base, targets);
    if (this.peek() === '(') this.metadata();
  }

  attribute(prim: UsdPrim, first: string) {
    let word = first;
    let uniform = false;
    while (QUALIFIERS.has(word)) {
      if (word === 'uniform') uniform = true;
      word = this.ident();
    }
    let typeName = word;
    if (this.text.startsWith('[]', this.pos)) {
      typeName += '[]';
      this.pos += 2;
    }
    const full = this.ident();
    const dot = /\.(connect|timeSamples|spline|default)$/.exec(full);
    const name = dot ? full.slice(0, dot.index) : full;
    const attr: UsdAttribute = prim.attributes.get(name) ?? { typeName, value: undefined, uniform };
    if (this.eat('=')) {
      const v = this.value();
      if (dot?.[1] === 'connect') {
        const target = Array.isArray(v) ? v[0] : v;
        if (target && typeof target === 'object' && 'path' in target) attr.connect = target.path;
      } else if (dot?.[1] === 'timeSamples') {
        if (attr.value === undefined && Array.isArray(v) && v.length > 0) {
          const earliest = (v as [number, UsdValue][]).reduce((a, b) => (b[0] < a[0] ? b : a));
          attr.value = earliest[1];
        }
      } else if (dot?.[1] !== 'spline') attr.value = v;
    }
    if (this.peek() === '(') {
      const meta = this.metadata();
      if (typeof meta.interpolation === 'string') attr.interpolation = meta.interpolation;
      if (typeof meta.elementSize === 'number') attr.elementSize = meta.elementSize;
    }
    prim.attributes.set(name, attr);
  }
}
