import { CallTerm, Expr } from '../ast/ast';
import { BuiltinDef } from '../builtins/types';
import { RegoErrorDetail } from '../errors';
import { DEPRECATED_BUILTINS } from '../builtins/opa-builtins';
import { unsupportedRe2 } from '../builtins/regex';
import { refDeps } from './ref-deps';
import { checkTypes } from './typecheck/check-types';
import { SchemaContext } from './typecheck/schema-env';
import { arityMismatch } from './typecheck/checker';
import { CompiledRule, DocNode } from './types';
import { walkBody, walkRule } from './walk';

/** Conflicting rule kinds, duplicate defaults and function arity mismatches. */
export function checkTree(node: DocNode, errors: RegoErrorDetail[]): void {
  const name = ['data', ...node.path].join('.');
  const all = [...node.rules, ...node.funcs];
  if (node.defaultCount > 1 && node.defaultRule) {
    errors.push({
      code: 'rego_type_error',
      message: `multiple default rules ${name} found`,
      location: node.defaultRule.loc,
    });
  }
  const kinds = new Set(all.map((r) => (r.tail.length === 0 ? r.kind : 'ref')));
  const arities = new Set(node.funcs.map((r) => r.args?.length));
  if (
    all.length > 0 &&
    (kinds.size > 1 || arities.size > 1 || (node.funcs.length > 0 && node.rules.length > 0))
  ) {
    errors.push({
      code: 'rego_type_error',
      message: `conflicting rules ${name} found`,
      location: all[0].loc,
    });
  }
  for (const c of node.children.values()) {
    checkTree(c, errors);
  }
}

/** Operand index of the pattern for regex built-ins: literal patterns are checked when compiling. */
const REGEX_PATTERN_ARG: Record<string, number> = {
  'regex.match': 0,
  'regex.split': 0,
  'regex.find_n': 0,
  'regex.find_all_string_submatch_n': 0,
  'regex.replace': 1,
};

/** Built-ins that Rego v1 rejects (OPA marks them deprecated). */
const DEPRECATED = DEPRECATED_BUILTINS;

/** Built-in arity and built-ins we know by name but do not implement (unless mocked with `with`). */
export function checkUnsupported(
  rules: CompiledRule[],
  builtins: Map<string, BuiltinDef>,
  errors: RegoErrorDetail[],
  query?: Expr[],
  root?: DocNode,
  schemas?: SchemaContext,
): void {
  const mocked = new Set<string>();
  // Calls that are a whole expression; any other call gets an output variable in OPA, so it must
  // have exactly the function's arity.
  const statements = new Set<CallTerm>();
  const visitWiths = (body: Expr[]): void => {
    for (const e of body) {
      if (e.kind === 'term' && e.term.type === 'call') {
        statements.add(e.term);
      } else if (e.kind === 'every') {
        visitWiths(e.body);
      }
      for (const w of e.withs) {
        if (w.resolved?.fnKey) {
          mocked.add(w.resolved.fnKey);
        }
      }
    }
  };
  const collect = (t: { type: string; body?: Expr[] }): void => {
    if (t.body) {
      visitWiths(t.body);
    }
  };
  rules.forEach((r) => {
    for (let x: CompiledRule | undefined = r; x; x = x.elseRule) {
      visitWiths(x.body);
    }
    walkRule(r, collect);
  });
  if (query) {
    visitWiths(query);
  }
  const check = (t: { type: string }): void => {
    if (t.type !== 'call') {
      return;
    }
    const call = t as CallTerm;
    const statement = statements.has(call);
    if (call.target?.kind === 'function' && root) {
      const arity = functionArity(root, call.target.path);
      const n = call.args.length;
      if (arity !== undefined && n !== arity && !(statement && n === arity + 1)) {
        // OPA's checkUndefinedFuncs (ast/compile.go).
        errors.push({
          code: 'rego_type_error',
          message: `function ${['data', ...call.target.path].join('.')} has arity ${arity}, got ${n} argument${n === 1 ? '' : 's'}`,
          location: call.loc,
        });
      }
      return;
    }
    if (call.target?.kind !== 'builtin') {
      return;
    }
    const def = builtins.get(call.target.name);
    if (!def) {
      return;
    }
    if (DEPRECATED.has(def.name)) {
      errors.push({
        code: 'rego_type_error',
        message: `deprecated built-in function calls in expression: ${def.name}`,
        location: call.loc,
      });
      return;
    }
    if (def.unsupported && !mocked.has(def.name)) {
      errors.push({
        code: 'rego_type_error',
        message: `unsupported built-in function ${def.name}: ${def.reason ?? 'not implemented'} (mock it with \`with\` to use it here)`,
        location: call.loc,
      });
    }
    const n = call.args.length;
    if (!def.variadic && n !== def.arity && !(statement && n === def.arity + 1)) {
      errors.push({
        code: 'rego_type_error',
        message: arityMismatch(def.name, call.args, !statement),
        location: call.loc,
      });
      return;
    }
    const patternArg = REGEX_PATTERN_ARG[def.name];
    const pattern = patternArg === undefined ? undefined : call.args[patternArg];
    if (
      pattern?.type === 'scalar' &&
      typeof pattern.value === 'string' &&
      unsupportedRe2(pattern.value)
    ) {
      // Valid RE2 that the JavaScript translation cannot express: refuse rather than answer wrongly.
      errors.push({
        code: 'rego_type_error',
        message: `${def.name}: regular expression syntax not supported by this engine: ${pattern.value}`,
        location: call.loc,
      });
    }
  };
  rules.forEach((r) => walkRule(r, check));
  if (query) {
    walkBody(query, check);
  }
  if (root) {
    checkTypes(rules, root, errors, query, schemas);
  }
}

/** Rules that depend on themselves (OPA's `rego_recursion_error`). */
export function checkRecursion(
  root: DocNode,
  rules: CompiledRule[],
  errors: RegoErrorDetail[],
): void {
  const deps = new Map<string, Set<string>>();
  const byName = new Map<string, CompiledRule>();
  for (const r of rules) {
    byName.set(r.name, byName.get(r.name) ?? r);
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
  const state = new Map<string, number>();
  const stack: string[] = [];
  const reported = new Set<string>();
  const visit = (n: string): void => {
    state.set(n, 1);
    stack.push(n);
    for (const d of deps.get(n) ?? []) {
      if (state.get(d) === 1) {
        const cycle = [...stack.slice(stack.indexOf(d)), d];
        if (!reported.has(d)) {
          reported.add(d);
          const r = byName.get(d);
          if (r) {
            errors.push({
              code: 'rego_recursion_error',
              message: `rule ${d} is recursive: ${cycle.join(' -> ')}`,
              location: r.loc,
            });
          }
        }
      } else if (!state.has(d)) {
        visit(d);
      }
    }
    stack.pop();
    state.set(n, 2);
  };
  for (const n of deps.keys()) {
    if (!state.has(n)) {
      visit(n);
    }
  }
}

/** Arity of the user function at a path (its first definition's), if there is one. */
function functionArity(root: DocNode, path: string[]): number | undefined {
  let node: DocNode | undefined = root;
  for (const p of path) {
    node = node?.children.get(p);
  }
  return node?.funcs[0]?.args?.length ?? node?.defaultRule?.args?.length;
}
