import { Expr } from '../../ast/ast';
import { RegoErrorDetail } from '../../errors';
import { refDeps } from '../ref-deps';
import { CompiledRule, DocNode } from '../types';
import { walkRule } from '../walk';
import { TypeChecker } from './checker';
import { TypeErrorDetail } from './refs';
import { SchemaContext } from './schema-env';

/** The checker holding the rule documents' types of each compiled program (for its queries). */
const checkers = new WeakMap<DocNode, TypeChecker>();

/**
 * Type-checks the rules in dependency order (OPA checks a rule after the rules it refers to, so
 * their types are known), then the query, and adds `rego_type_error`s sorted by location.
 */
export function checkTypes(
  rules: CompiledRule[],
  root: DocNode,
  errors: RegoErrorDetail[],
  query?: Expr[],
  schemas?: SchemaContext,
): void {
  const found: TypeErrorDetail[] = [];
  let checker = checkers.get(root);
  if (!checker || rules.length > 0) {
    checker = new TypeChecker(schemas);
    for (const r of dependencyOrder(rules, root)) {
      for (let x: CompiledRule | undefined = r; x; x = x.elseRule) {
        found.push(...checker.checkRule(x));
      }
    }
    checker.forgetTerms();
    checkers.set(root, checker);
  }
  if (query) {
    found.push(...checker.checkBody(checker.env(), query));
    checker.forgetTerms();
  }
  found.sort(
    (a, b) =>
      a.location.file.localeCompare(b.location.file) ||
      a.location.row - b.location.row ||
      a.location.col - b.location.col ||
      a.message.localeCompare(b.message),
  );
  for (const e of found) {
    errors.push({ code: 'rego_type_error', message: e.message, location: e.location });
  }
}

/** Rules ordered so that each comes after the documents and functions it refers to. */
function dependencyOrder(rules: CompiledRule[], root: DocNode): CompiledRule[] {
  const byName = new Map<string, CompiledRule[]>();
  for (const r of rules) {
    const list = byName.get(r.name) ?? [];
    list.push(r);
    byName.set(r.name, list);
  }
  const deps = new Map<string, Set<string>>();
  for (const r of rules) {
    const set = deps.get(r.name) ?? new Set<string>();
    deps.set(r.name, set);
    walkRule(r, (t) => {
      if (t.type === 'call' && t.target?.kind === 'function') {
        set.add(['data', ...t.target.path].join('.'));
      } else if (t.type === 'ref' && t.terms[0].type === 'var' && t.terms[0].name === 'data') {
        refDeps(root, t.terms.slice(1), 0, set);
      }
    });
  }
  const out: CompiledRule[] = [];
  const state = new Map<string, 'active' | 'done'>();
  const visit = (name: string): void => {
    state.set(name, 'active');
    for (const d of deps.get(name) ?? []) {
      if (!state.has(d) && byName.has(d)) {
        visit(d);
      }
    }
    state.set(name, 'done');
    out.push(...(byName.get(name) ?? []));
  };
  for (const name of byName.keys()) {
    if (!state.has(name)) {
      visit(name);
    }
  }
  return out;
}
