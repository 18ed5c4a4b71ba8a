import { RefTerm, Term } from '../ast/ast';
import { Value } from '../values/value';
import { CompiledRule, DocNode } from './types';

type Key = string | number | boolean | null;

/** Rules of one node that test the same input path against constants, grouped by constant. */
export interface IndexGroup {
  ref: RefTerm;
  byValue: Map<Key, CompiledRule[]>;
}

/** OPA-style rule index: rules whose body requires `input.… == constant` are only tried when it holds. */
export interface RuleIndex {
  always: CompiledRule[];
  groups: IndexGroup[];
}

function groundInputRef(t: Term): RefTerm | undefined {
  if (t.type !== 'ref' || t.terms[0].type !== 'var' || t.terms[0].name !== 'input') {
    return undefined;
  }
  return t.terms.slice(1).every((x) => x.type === 'scalar' && typeof x.value === 'string')
    ? t
    : undefined;
}

function refKey(r: RefTerm): string {
  return r.terms
    .slice(1)
    .map((x) => (x.type === 'scalar' && typeof x.value === 'string' ? x.value : ''))
    .join('\u0000');
}

function indexable(v: Value): v is Key {
  return (
    v === null ||
    typeof v === 'string' ||
    typeof v === 'boolean' ||
    (typeof v === 'number' && Number.isFinite(v))
  );
}

/** The first `input.path == constant` condition of a rule body, if any. */
function condition(r: CompiledRule): { ref: RefTerm; value: Key } | undefined {
  if (r.elseRule || r.body.some((e) => e.withs.length > 0)) {
    return undefined;
  }
  for (const e of r.body) {
    if (
      e.kind !== 'term' ||
      e.negated ||
      e.term.type !== 'call' ||
      e.term.target?.kind !== 'builtin' ||
      e.term.target.name !== 'equal' ||
      e.term.args.length !== 2
    ) {
      continue;
    }
    const [a, b] = e.term.args;
    const ref = groundInputRef(a) ?? groundInputRef(b);
    const other = ref === a ? b : a;
    if (ref && other.type === 'scalar' && indexable(other.value)) {
      return { ref, value: other.value };
    }
  }
  return undefined;
}

/** Builds the index of a node's rules (used when a node has several rules). */
export function buildIndex(rules: CompiledRule[]): RuleIndex | undefined {
  if (rules.length < 4) {
    return undefined;
  }
  const always: CompiledRule[] = [];
  const groups = new Map<string, IndexGroup>();
  for (const r of rules) {
    const c = condition(r);
    if (!c) {
      always.push(r);
      continue;
    }
    const key = refKey(c.ref);
    let g = groups.get(key);
    if (!g) {
      g = { ref: c.ref, byValue: new Map() };
      groups.set(key, g);
    }
    const list = g.byValue.get(c.value) ?? [];
    list.push(r);
    g.byValue.set(c.value, list);
  }
  return groups.size === 0 ? undefined : { always, groups: [...groups.values()] };
}

/** Indexes every node of the tree. */
export function indexTree(node: DocNode): void {
  node.index = buildIndex(node.rules);
  node.children.forEach(indexTree);
}
