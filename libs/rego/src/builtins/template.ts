import { BigNum } from '../values/decimal';
import { formatNumber } from '../values/json';
import { RegoObject, RegoSet, Value, compareValues, valuesEqual } from '../values/value';
import { builtinErr, def, obj, str } from './helpers';
import { BuiltinDef } from './types';

// strings.render_template: Go's text/template (the subset policies use: fields, variables, if/else,
// range, with, and the comparison, logic, len, index and print functions), rendering values as Go
// prints them; a missing key renders as OPA renders it, `<undefined>`.

type Node =
  | { kind: 'text'; text: string }
  | { kind: 'print'; expr: string }
  | { kind: 'if' | 'with'; expr: string; then: Node[]; else: Node[] }
  | { kind: 'range'; expr: string; key?: string; value?: string; then: Node[]; else: Node[] };

const MISSING = Symbol('missing');
type V = Value | typeof MISSING;

function tokenize(src: string): (string | { action: string })[] {
  const out: (string | { action: string })[] = [];
  let i = 0;
  while (i < src.length) {
    const open = src.indexOf('{{', i);
    if (open < 0) {
      out.push(src.slice(i));
      break;
    }
    let text = src.slice(i, open);
    let start = open + 2;
    if (src[start] === '-' && /\s/.test(src[start + 1] ?? '')) {
      text = text.trimEnd();
      start++;
    }
    const close = src.indexOf('}}', start);
    if (close < 0) {
      throw builtinErr('template: unclosed action');
    }
    let end = close;
    let next = close + 2;
    if (src[close - 1] === '-' && /\s/.test(src[close - 2] ?? '')) {
      end--;
      const rest = src.slice(next);
      next += rest.length - rest.trimStart().length;
    }
    if (text) {
      out.push(text);
    }
    const action = src.slice(start, end).trim();
    if (!action.startsWith('/*')) {
      out.push({ action });
    }
    i = next;
  }
  return out;
}

function parseNodes(toks: (string | { action: string })[], pos: { i: number }): [Node[], string] {
  const nodes: Node[] = [];
  while (pos.i < toks.length) {
    const t = toks[pos.i++];
    if (typeof t === 'string') {
      nodes.push({ kind: 'text', text: t });
      continue;
    }
    const a = t.action;
    const word = a.split(/\s+/)[0];
    if (word === 'end' || word === 'else') {
      return [nodes, a];
    }
    if (word === 'if' || word === 'with' || word === 'range') {
      nodes.push(parseBlock(word, a.slice(word.length).trim(), toks, pos));
      continue;
    }
    nodes.push({ kind: 'print', expr: a });
  }
  return [nodes, ''];
}

/** A block up to its `end`; `{{else if …}}` nests a block that shares that `end`. */
function parseBlock(
  word: 'if' | 'with' | 'range',
  head: string,
  toks: (string | { action: string })[],
  pos: { i: number },
): Node {
  const [then, stop] = parseNodes(toks, pos);
  let elseNodes: Node[] = [];
  if (stop.startsWith('else')) {
    const rest = stop.slice(4).trim();
    const w = rest.split(/\s+/)[0];
    if (w === 'if' || w === 'with') {
      elseNodes = [parseBlock(w, rest.slice(w.length).trim(), toks, pos)];
    } else {
      [elseNodes] = parseNodes(toks, pos);
    }
  }
  if (word !== 'range') {
    return { kind: word, expr: head, then, else: elseNodes };
  }
  const m = /^(\$\w+)\s*(?:,\s*(\$\w+))?\s*:=\s*(.*)$/.exec(head);
  if (!m) {
    return { kind: 'range', expr: head, then, else: elseNodes };
  }
  const [key, value] = m[2] ? [m[1], m[2]] : [undefined, m[1]];
  return { kind: 'range', expr: m[3], key, value, then, else: elseNodes };
}

function goText(v: V): string {
  if (v === MISSING) {
    return '<undefined>';
  }
  if (v === null) {
    return '<nil>';
  }
  if (typeof v === 'string') {
    return v;
  }
  if (typeof v === 'number' || typeof v === 'bigint') {
    return formatNumber(v);
  }
  if (v instanceof BigNum) {
    return v.text;
  }
  if (typeof v === 'boolean') {
    return String(v);
  }
  if (Array.isArray(v) || v instanceof RegoSet) {
    return `[${(Array.isArray(v) ? v : v.values()).map(goText).join(' ')}]`;
  }
  return `map[${[...v.entries()].map(([k, x]) => `${goText(k)}:${goText(x)}`).join(' ')}]`;
}

function truthy(v: V): boolean {
  if (v === MISSING || v === null || v === false || v === 0 || v === 0n || v === '') {
    return false;
  }
  if (Array.isArray(v)) {
    return v.length > 0;
  }
  if (v instanceof RegoObject || v instanceof RegoSet) {
    return v.size > 0;
  }
  return true;
}

class Renderer {
  private readonly vars: Map<string, V>[] = [new Map<string, V>()];

  constructor(private readonly root: Value) {
    this.vars[0].set('$', root);
  }

  render(nodes: Node[], dot: V): string {
    let out = '';
    for (const n of nodes) {
      switch (n.kind) {
        case 'text':
          out += n.text;
          break;
        case 'print': {
          const decl = /^(\$\w+)\s*:?=\s*(.*)$/.exec(n.expr);
          if (decl) {
            this.vars[this.vars.length - 1].set(decl[1], this.pipeline(decl[2], dot));
          } else {
            out += goText(this.pipeline(n.expr, dot));
          }
          break;
        }
        case 'if': {
          const c = this.pipeline(n.expr, dot);
          out += this.scoped(() => this.render(truthy(c) ? n.then : n.else, dot));
          break;
        }
        case 'with': {
          const c = this.pipeline(n.expr, dot);
          out += this.scoped(() => (truthy(c) ? this.render(n.then, c) : this.render(n.else, dot)));
          break;
        }
        case 'range': {
          const c = this.pipeline(n.expr, dot);
          const entries: [Value, Value][] = Array.isArray(c)
            ? c.map((x, i) => [i, x])
            : c instanceof RegoObject
              ? [...c.entries()]
              : c instanceof RegoSet
                ? c.values().map((x, i) => [i, x])
                : [];
          if (entries.length === 0) {
            out += this.scoped(() => this.render(n.else, dot));
          }
          for (const [k, x] of entries) {
            out += this.scoped(() => {
              const scope = this.vars[this.vars.length - 1];
              if (n.key) {
                scope.set(n.key, k);
              }
              if (n.value) {
                scope.set(n.value, x);
              }
              return this.render(n.then, x);
            });
          }
          break;
        }
      }
    }
    return out;
  }

  private scoped(fn: () => string): string {
    this.vars.push(new Map<string, V>());
    try {
      return fn();
    } finally {
      this.vars.pop();
    }
  }

  private variable(name: string): V {
    for (let i = this.vars.length - 1; i >= 0; i--) {
      if (this.vars[i].has(name)) {
        return this.vars[i].get(name)!;
      }
    }
    throw builtinErr(`template: undefined variable "${name}"`);
  }

  private pipeline(expr: string, dot: V): V {
    let prev: V | undefined;
    for (const stage of splitTop(expr, '|')) {
      const args = splitArgs(stage.trim());
      prev = this.command(args, dot, prev);
    }
    return prev ?? MISSING;
  }

  private command(args: string[], dot: V, piped: V | undefined): V {
    const [head, ...rest] = args;
    const fn = FUNCS[head];
    if (fn) {
      const vals = rest.map((a) => this.operand(a, dot));
      return fn(piped === undefined ? vals : [...vals, piped]);
    }
    return this.operand(head, dot);
  }

  private operand(a: string, dot: V): V {
    if (a.startsWith('(') && a.endsWith(')')) {
      return this.pipeline(a.slice(1, -1), dot);
    }
    if (/^"(?:[^"\\]|\\.)*"$/.test(a) || /^`[^`]*`$/.test(a)) {
      return a.startsWith('`') ? a.slice(1, -1) : (JSON.parse(a) as string);
    }
    if (/^-?\d+(\.\d+)?$/.test(a)) {
      return Number(a);
    }
    if (a === 'true' || a === 'false') {
      return a === 'true';
    }
    if (a === 'nil') {
      return null;
    }
    let base: V;
    let path: string;
    if (a.startsWith('$')) {
      const m = /^(\$\w*)(.*)$/.exec(a)!;
      base = this.variable(m[1]);
      path = m[2];
    } else if (a.startsWith('.')) {
      base = dot;
      path = a === '.' ? '' : a;
    } else {
      throw builtinErr(`template: function "${a}" not defined`);
    }
    for (const key of path.split('.').filter(Boolean)) {
      base = base instanceof RegoObject ? (base.get(key) ?? MISSING) : MISSING;
    }
    return base;
  }
}

function splitTop(s: string, sep: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = '';
  let cur = '';
  for (const ch of s) {
    if (quote) {
      if (ch === quote) {
        quote = '';
      }
    } else if (ch === '"' || ch === '`') {
      quote = ch;
    } else if (ch === '(') {
      depth++;
    } else if (ch === ')') {
      depth--;
    } else if (ch === sep && depth === 0) {
      out.push(cur);
      cur = '';
      continue;
    }
    cur += ch;
  }
  out.push(cur);
  return out;
}

function splitArgs(s: string): string[] {
  return splitTop(s.replace(/\s+/g, ' '), ' ').filter((x) => x !== '');
}

const plain = (v: V): Value => (v === MISSING ? null : v);

const FUNCS: Record<string, (args: V[]) => V> = {
  eq: ([a, ...bs]) => bs.some((b) => valuesEqual(plain(a), plain(b))),
  ne: ([a, b]) => !valuesEqual(plain(a), plain(b)),
  lt: ([a, b]) => compareValues(plain(a), plain(b)) < 0,
  le: ([a, b]) => compareValues(plain(a), plain(b)) <= 0,
  gt: ([a, b]) => compareValues(plain(a), plain(b)) > 0,
  ge: ([a, b]) => compareValues(plain(a), plain(b)) >= 0,
  and: (xs) => xs.find((x) => !truthy(x)) ?? xs[xs.length - 1],
  or: (xs) => xs.find((x) => truthy(x)) ?? xs[xs.length - 1],
  not: ([x]) => !truthy(x),
  len: ([x]) =>
    typeof x === 'string'
      ? [...x].length
      : Array.isArray(x)
        ? x.length
        : x instanceof RegoObject || x instanceof RegoSet
          ? x.size
          : 0,
  index: ([x, ...keys]) =>
    keys.reduce<V>(
      (o, k) =>
        Array.isArray(o)
          ? (o[Number(k)] ?? MISSING)
          : o instanceof RegoObject
            ? (o.get(plain(k)) ?? MISSING)
            : MISSING,
      x,
    ),
  print: (xs) => xs.map(goText).join(''),
  println: (xs) => xs.map(goText).join(' ') + '\n',
  printf: ([f, ...xs]) => {
    let i = 0;
    return goText(f).replace(/%[vsdq%]/g, (m) =>
      m === '%%'
        ? '%'
        : m === '%q'
          ? JSON.stringify(goText(xs[i++] ?? MISSING))
          : goText(xs[i++] ?? MISSING),
    );
  },
};

export const TEMPLATE_BUILTINS: BuiltinDef[] = [
  def('strings.render_template', 2, ([t, v]) => {
    const vars = obj(v, 2);
    const [nodes] = parseNodes(tokenize(str(t, 1)), { i: 0 });
    return new Renderer(vars).render(nodes, vars);
  }),
];
