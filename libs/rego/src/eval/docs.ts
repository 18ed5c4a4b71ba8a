import { Term } from '../ast/ast';
import { CompiledRule, DocNode } from '../compiler/types';
import { RegoObject, Value, valuesEqual } from '../values/value';
import { conflict, DocBuilder } from './builder';
import type { Evaluator } from './evaluator';
import { walkPath } from './refs';
import { dataOverride } from './with';
import { ENUM, direct } from './direct';
import { Frame, UNDEF, VK } from './state';

/** Walks a `data` ref through the rule tree, evaluating virtual documents on the way. */
export function walkData(
  ev: Evaluator,
  node: DocNode,
  base: Value | undefined,
  path: Term[],
  i: number,
  f: Frame,
  vk: VK,
): boolean {
  if (ev.state.overrides.length > 0) {
    const o = dataOverride(ev, node.path);
    if (o.kind === 'replace') {
      return o.value !== undefined && walkPath(ev, o.value, path, i, f, vk);
    }
    if (o.kind === 'below' && (i === path.length || node.rules.length > 0 || node.defaultRule)) {
      const doc = o.patch(nodeDoc(ev, node, base));
      return doc !== undefined && walkPath(ev, doc, path, i, f, vk);
    }
  }
  if (i === path.length || node.rules.length > 0 || node.defaultRule || !node.hasRules) {
    const doc = nodeDoc(ev, node, base);
    return doc !== undefined && walkPath(ev, doc, path, i, f, vk, !node.hasRules);
  }
  const p = path[i];
  const step = (k: Value): boolean => {
    const key = typeof k === 'number' && Number.isInteger(k) ? String(k) : k;
    if (typeof key !== 'string') {
      return false;
    }
    const child = node.children.get(key);
    const b = base instanceof RegoObject ? base.get(key) : undefined;
    if (child) {
      return walkData(ev, child, b, path, i + 1, f, vk);
    }
    if (ev.state.overrides.length > 0) {
      const o = dataOverride(ev, [...node.path, key]);
      if (o.kind === 'replace') {
        return o.value !== undefined && walkPath(ev, o.value, path, i + 1, f, vk);
      }
      if (o.kind === 'below') {
        const d = o.patch(b);
        return d !== undefined && walkPath(ev, d, path, i + 1, f, vk);
      }
    }
    return b !== undefined && walkPath(ev, b, path, i + 1, f, vk, true);
  };
  if (p.type === 'var' && f[p.slot] === undefined) {
    const keys = new Set<string>();
    node.children.forEach((c, key) => {
      if (c.hasRules) {
        keys.add(key);
      }
    });
    if (base instanceof RegoObject) {
      base.keys().forEach((key) => typeof key === 'string' && keys.add(key));
    }
    for (const key of [...keys].sort()) {
      if (ev.bindVar(p, key, f, () => step(key))) {
        return true;
      }
    }
    return false;
  }
  return ev.term(p, f, step);
}

/** Full document at a node: base data merged with the rules at and below it (memoised). */
export function nodeDoc(ev: Evaluator, node: DocNode, base: Value | undefined): Value | undefined {
  if (!node.hasRules) {
    return base;
  }
  const memo = ev.state.memo.get(node);
  if (memo !== undefined) {
    return memo === UNDEF ? undefined : memo;
  }
  let result: Value | undefined;
  if ((node.rules.length > 0 || node.defaultRule) && base !== undefined) {
    // Base documents take precedence over rules at the same path (as in OPA's merged view).
    result = base;
  } else if (node.rules.length > 0 || node.defaultRule) {
    result = evalRules(ev, node, base);
  } else {
    const obj = new RegoObject();
    if (base instanceof RegoObject) {
      base.entries().forEach(([k, v]) => obj.set(k, v));
    }
    node.children.forEach((c, key) => {
      if (c.hasRules) {
        const b = base instanceof RegoObject ? base.get(key) : undefined;
        const v = nodeDoc(ev, c, b);
        if (v !== undefined && b === undefined) {
          obj.set(key, v);
        }
      }
    });
    result = obj;
  }
  ev.state.memo.set(node, result === undefined ? UNDEF : result);
  return result;
}

function hasRuleChildren(node: DocNode): boolean {
  for (const c of node.children.values()) {
    if (c.hasRules) {
      return true;
    }
  }
  return false;
}

/** Rules worth trying: the rule index skips rules whose `input.… == constant` test cannot hold. */
function candidates(ev: Evaluator, node: DocNode): CompiledRule[] {
  const idx = node.index;
  if (!idx) {
    return node.rules;
  }
  const out = [...idx.always];
  for (const g of idx.groups) {
    const v = direct(ev, g.ref, []);
    if (v === ENUM) {
      g.byValue.forEach((rs) => out.push(...rs));
    } else if (v !== undefined && (v === null || typeof v !== 'object')) {
      const hit = g.byValue.get(typeof v === 'bigint' ? Number(v) : v);
      if (hit) {
        out.push(...hit);
      }
    }
  }
  return out;
}

function evalRules(ev: Evaluator, node: DocNode, base: Value | undefined): Value | undefined {
  const rules = candidates(ev, node);
  const children = hasRuleChildren(node);
  if (!children && rules.every((r) => r.kind === 'single' && r.tail.length === 0)) {
    let value: Value | undefined;
    for (const r of rules) {
      const v = completeValue(ev, r);
      if (v !== undefined) {
        if (value !== undefined && !valuesEqual(value, v)) {
          throw conflict('complete rules must not produce multiple outputs', r.loc);
        }
        value = v;
      }
    }
    return value !== undefined ? value : defaultValue(ev, node);
  }
  const initial = node.rules.some((r) => r.kind === 'multi' && r.tail.length === 0)
    ? 'set'
    : node.rules.some((r) => r.tail.length > 0)
      ? 'obj'
      : undefined;
  const b = new DocBuilder(initial);
  for (const r of rules) {
    if (r.kind === 'single' && r.tail.length === 0) {
      const v = completeValue(ev, r);
      if (v !== undefined) {
        b.leaf([], v, r.loc);
      }
      continue;
    }
    const f: Frame = new Array<Value | undefined>(r.nslots);
    ev.body(r.body, 0, f, () =>
      ev.items(r.tail, 0, [], f, (keys) => {
        if (r.kind === 'multi') {
          return ev.term(r.key!, f, (v) => (b.element(keys, v, r.loc), false));
        }
        return ev.term(r.value!, f, (v) => (b.leaf(keys, v, r.loc), false));
      }),
    );
  }
  node.children.forEach((c, key) => {
    if (c.hasRules) {
      const v = nodeDoc(ev, c, base instanceof RegoObject ? base.get(key) : undefined);
      if (v !== undefined) {
        b.merge(key, v, c.rules[0]?.loc ?? node.rules[0]?.loc ?? { file: '', row: 0, col: 0 });
      }
    }
  });
  const res = b.result();
  return res !== undefined ? res : defaultValue(ev, node);
}

function defaultValue(ev: Evaluator, node: DocNode): Value | undefined {
  const d = node.defaultRule;
  if (!d || !d.value) {
    return undefined;
  }
  let out: Value | undefined;
  // The body holds the hoisted value of a comprehension default (`default p := [x | …]`).
  const f = new Array<Value | undefined>(d.nslots);
  ev.body(d.body, 0, f, () => ev.term(d.value!, f, (v) => ((out = v), true)));
  return out;
}

/** Value of a complete rule with its `else` chain; conflicting outputs raise an error. */
function completeValue(ev: Evaluator, rule: CompiledRule): Value | undefined {
  for (let r: CompiledRule | undefined = rule; r; r = r.elseRule) {
    const f: Frame = new Array<Value | undefined>(rule.nslots);
    let value: Value | undefined;
    const cr = r;
    ev.body(cr.body, 0, f, () =>
      ev.term(cr.value!, f, (v) => {
        if (value !== undefined && !valuesEqual(value, v)) {
          throw conflict('complete rules must not produce multiple outputs', cr.loc);
        }
        value = v;
        return cr.constValue;
      }),
    );
    if (value !== undefined) {
      return value;
    }
  }
  return undefined;
}
