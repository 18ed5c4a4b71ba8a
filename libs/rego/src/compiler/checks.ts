import { Expr, Term } from '../ast/ast';
import { BigNum } from '../values/decimal';
import { BuiltinDef } from '../builtins/types';
import { RegoErrorDetail } from '../errors';
import { DEPRECATED_BUILTINS } from '../builtins/opa-builtins';
import { unsupportedRe2 } from '../builtins/regex';
import { RESULT_TYPES, SIGNATURES } from './signatures';
import { CompiledRule, DocNode } from './types';
import { walkBody, walkRule, walkTerm } from './walk';

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

type Env = Map<string, string>;

/**
 * Type of a term known without evaluation, else 'any': literals, comprehensions, calls of built-ins
 * with a single result type, and locals that `:=` binds to such a term (`env`).
 */
function staticType(t: Term, env: Env, docs?: DocTyper): string {
  switch (t.type) {
    case 'scalar':
      return t.value === null
        ? 'null'
        : typeof t.value === 'bigint' || t.value instanceof BigNum
          ? 'number'
          : typeof t.value;
    case 'array':
    case 'arraycomp':
      return 'array';
    case 'set':
    case 'setcomp':
      return 'set';
    case 'object':
    case 'objectcomp':
      return 'object';
    case 'var':
      return env.get(t.name) ?? 'any';
    case 'call':
      if (t.target?.kind === 'function') {
        return docs ? docs.functionType(t.target.path) : 'any';
      }
      return (t.target?.kind === 'builtin' && RESULT_TYPES[t.target.name]) || 'any';
    case 'ref': {
      // `xs[i]` into a local whose elements have one known type (OPA types refs into composites).
      const head = t.terms[0];
      if (head.type === 'var' && t.terms.length === 2 && env.has(head.name + '[]')) {
        return env.get(head.name + '[]') ?? 'any';
      }
      return docs ? docs.type(t) : 'any';
    }
  }
}

/**
 * The one type of every element (values of an object) of a collection term, else 'any': literals
 * whose elements all have the same known type, comprehensions whose head has a known type, and
 * locals typed so (OPA's array/set/object element types, without unions).
 */
function elementType(t: Term, env: Env, docs?: DocTyper): string {
  const same = (ts: Term[]): string => {
    const types = new Set(ts.map((x) => staticType(x, env, docs)));
    const [only] = types;
    return types.size === 1 && only !== undefined ? only : 'any';
  };
  switch (t.type) {
    case 'array':
    case 'set':
      return t.items.length > 0 ? same(t.items) : 'any';
    case 'object':
      return t.pairs.length > 0 ? same(t.pairs.map((e) => e[1])) : 'any';
    case 'arraycomp':
    case 'setcomp':
      return staticType(t.term, env, docs);
    case 'objectcomp':
      return staticType(t.value, env, docs);
    case 'var':
      return env.get(t.name + '[]') ?? 'any';
    case 'call':
    case 'ref':
    case 'scalar':
      return 'any';
  }
}

/** Type of the keys of a collection: array indexes are numbers, set keys are the elements. */
function keyType(t: Term, env: Env, docs?: DocTyper): string {
  const kind = staticType(t, env, docs);
  if (kind === 'array') {
    return 'number';
  }
  if (kind === 'set') {
    return elementType(t, env, docs);
  }
  if (t.type === 'object' && t.pairs.length > 0) {
    const types = new Set(t.pairs.map((e) => staticType(e[0], env, docs)));
    const [only] = types;
    return types.size === 1 && only !== undefined ? only : 'any';
  }
  return 'any';
}

/**
 * Types of rule documents (`data.pkg.p`, or `p` inside its package): a complete rule whose every
 * definition (default and else included) has one known value type has that type; a partial set is a
 * set. Anything else (ref heads, functions, nodes with children, recursion) is 'any'.
 */
class DocTyper {
  private readonly cache = new Map<DocNode, string>();
  private readonly active = new Set<DocNode>();

  constructor(private readonly root: DocNode) {}

  type(t: import('../ast/ast').RefTerm): string {
    const head = t.terms[0];
    if (head.type !== 'var' || head.name !== 'data') {
      return 'any';
    }
    let node = this.root;
    for (const x of t.terms.slice(1)) {
      const c =
        x.type === 'scalar' && typeof x.value === 'string' ? node.children.get(x.value) : undefined;
      if (!c) {
        return 'any';
      }
      node = c;
    }
    return this.nodeType(node);
  }

  /** Result type of a user function: one known type across all its definitions, else 'any'. */
  functionType(path: string[]): string {
    let node: DocNode | undefined = this.root;
    for (const p of path) {
      node = node?.children.get(p);
    }
    if (!node || node.funcs.length === 0) {
      return 'any';
    }
    return this.nodeType(node);
  }

  private nodeType(node: DocNode): string {
    const cached = this.cache.get(node);
    if (cached !== undefined) {
      return cached;
    }
    if (this.active.has(node)) {
      return 'any';
    }
    this.active.add(node);
    const type = this.rulesType(node);
    this.active.delete(node);
    this.cache.set(node, type);
    return type;
  }

  private rulesType(node: DocNode): string {
    const isFunction = node.funcs.length > 0;
    if (node.children.size > 0 || (isFunction && node.rules.length > 0)) {
      return 'any';
    }
    const defined = isFunction ? node.funcs : node.rules;
    const rules = node.defaultRule ? [...defined, node.defaultRule] : defined;
    let type: string | undefined;
    for (const r of rules) {
      for (let x: CompiledRule | undefined = r; x; x = x.elseRule) {
        if (x.tail.length > 0 || (x.kind === 'func') !== isFunction) {
          return 'any';
        }
        const t =
          x.kind === 'multi'
            ? 'set'
            : x.value
              ? staticType(x.value, localTypes(bodiesOf([x.body]), x.args ?? [], this), this)
              : 'any';
        if (t === 'any' || (type !== undefined && type !== t)) {
          return 'any';
        }
        type = t;
      }
    }
    return type ?? 'any';
  }
}

/** Every body of a rule or query, nested ones (comprehensions, `every`) included. */
function bodiesOf(roots: Expr[][]): Expr[][] {
  const out: Expr[][] = [];
  const visitBody = (body: Expr[]): void => {
    out.push(body);
    for (const e of body) {
      if (e.kind === 'every') {
        visitBody(e.body);
      }
    }
    walkBody(body, (t) => {
      if (t.type === 'arraycomp' || t.type === 'setcomp' || t.type === 'objectcomp') {
        out.push(t.body);
      }
    });
  };
  roots.forEach(visitBody);
  return out;
}

/**
 * Types of the locals that `:=` binds to a term of known type. A name bound any other way in the
 * rule (function argument, `some`, `every`, a second `:=` with another type) is left untyped, so the
 * check never rejects what OPA's checker accepts.
 */
function localTypes(bodies: Expr[][], args: Term[], docs?: DocTyper): Env {
  const env: Env = new Map();
  const untyped = new Set<string>();
  // How many times each name is bound: only a name bound once is typed from its binding.
  const bindings = new Map<string, number>();
  const bound = (name: string): void => {
    bindings.set(name, (bindings.get(name) ?? 0) + 1);
  };
  const vars = (t: Term | undefined): void => {
    if (t) {
      walkTerm(t, (x) => {
        if (x.type === 'var') {
          untyped.add(x.name);
        }
      });
    }
  };
  // `some k, v in xs`: typed from the domain's key and element types when bound only there.
  const members: { key?: Term; value: Term; domain: Term }[] = [];
  args.forEach(vars);
  for (const body of bodies) {
    for (const e of body) {
      if (e.kind === 'some') {
        e.vars.forEach(vars);
      } else if (e.kind === 'somein') {
        for (const t of [e.key, e.value]) {
          if (t?.type === 'var') {
            bound(t.name);
          } else {
            vars(t);
          }
        }
        members.push(e);
      } else if (e.kind === 'every') {
        vars(e.key);
        vars(e.value);
      } else if (e.kind === 'assign' && e.left.type !== 'var') {
        vars(e.left);
      } else if (e.kind === 'assign' && e.left.type === 'var') {
        bound(e.left.name);
      }
    }
  }
  for (const m of members) {
    for (const t of [m.key, m.value]) {
      if (t?.type === 'var' && (bindings.get(t.name) ?? 0) > 1) {
        untyped.add(t.name);
      }
    }
  }
  // Passes: a local may be typed from one bound later in the text.
  for (let pass = 0; pass < 3; pass++) {
    for (const m of members) {
      const typeOf = (t: Term | undefined, type: string): void => {
        if (t?.type === 'var' && !untyped.has(t.name) && type !== 'any') {
          env.set(t.name, type);
        }
      };
      typeOf(m.value, elementType(m.domain, env, docs));
      typeOf(m.key, keyType(m.domain, env, docs));
    }
    for (const body of bodies) {
      for (const e of body) {
        // `:=`, or the compiler's own `$h = value` (a head value hoisted into the body).
        const binds =
          e.kind === 'assign' ||
          (e.kind === 'unify' && e.left.type === 'var' && e.left.name.startsWith('$h'));
        if (!binds || e.left.type !== 'var' || untyped.has(e.left.name)) {
          continue;
        }
        const type = staticType(e.right, env, docs);
        const name = e.left.name;
        const before = env.get(name);
        if (type === 'any' || (before !== undefined && before !== type)) {
          env.delete(name);
          env.delete(name + '[]');
          untyped.add(name);
        } else {
          env.set(name, type);
          const elem = elementType(e.right, env, docs);
          if (elem !== 'any' && type !== 'object') {
            env.set(name + '[]', elem);
          }
        }
      }
    }
  }
  return env;
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
): void {
  const docs = root ? new DocTyper(root) : undefined;
  const mocked = new Set<string>();
  const visitWiths = (body: Expr[]): void => {
    walkBody(body, () => undefined);
    for (const e of body) {
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
  let env: Env = new Map();
  const check = (t: { type: string }): void => {
    if (t.type !== 'call') {
      return;
    }
    const call = t as import('../ast/ast').CallTerm;
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
    if (!def.variadic && call.args.length !== def.arity && call.args.length !== def.arity + 1) {
      errors.push({
        code: 'rego_type_error',
        message: `${def.name}: arity mismatch`,
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
    const want = SIGNATURES[def.name];
    if (want) {
      const have = call.args.slice(0, want.length).map((a) => staticType(a, env, docs));
      if (
        have.some((h, i) => h !== 'any' && want[i] !== 'any' && !want[i].split('|').includes(h))
      ) {
        errors.push({
          code: 'rego_type_error',
          message: `${def.name}: invalid argument(s)\n\thave: (${have.join(', ')})\n\twant: (${want.map((w) => w.replaceAll('|', ' or ')).join(', ')})`,
          location: call.loc,
        });
      }
    }
  };
  // OPA's checkExprEq: `a = b` where both sides have known, different types is a "match error".
  const checkUnify = (bodies: Expr[][]): void => {
    for (const body of bodies) {
      for (const e of body) {
        if (e.kind !== 'unify') {
          continue;
        }
        const left = staticType(e.left, env, docs);
        const right = staticType(e.right, env, docs);
        if (left !== 'any' && right !== 'any' && left !== right) {
          errors.push({
            code: 'rego_type_error',
            message: `match error\n\tleft  : ${left}\n\tright : ${right}`,
            location: e.loc,
          });
        }
      }
    }
  };
  rules.forEach((r) => {
    for (let x: CompiledRule | undefined = r; x; x = x.elseRule) {
      const bodies = bodiesOf([x.body]);
      env = localTypes(bodies, x.args ?? [], docs);
      checkUnify(bodies);
      const { elseRule, ...one } = x;
      void elseRule;
      walkRule(one, check);
    }
  });
  if (query) {
    const bodies = bodiesOf([query]);
    env = localTypes(bodies, [], docs);
    checkUnify(bodies);
    walkBody(query, check);
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

/**
 * Rules a `data` ref can reach. A var (or any non-constant) element matches every child, as in OPA's
 * rule-tree lookup, so `data[x].allow` depends on each package's `allow`, not on all of `data`.
 */
function refDeps(
  node: DocNode,
  path: import('../ast/ast').Term[],
  i: number,
  out: Set<string>,
): void {
  if (i === path.length || node.rules.length > 0 || node.defaultRule) {
    addSubtree(node, out);
    return;
  }
  const t = path[i];
  if (t.type === 'scalar') {
    const c = typeof t.value === 'string' ? node.children.get(t.value) : undefined;
    if (c) {
      refDeps(c, path, i + 1, out);
    }
    return;
  }
  node.children.forEach((c) => refDeps(c, path, i + 1, out));
}

function addSubtree(node: DocNode, out: Set<string>): void {
  if (!node.hasRules && !node.hasFuncs) {
    return;
  }
  if (node.rules.length > 0 || node.funcs.length > 0 || node.defaultRule) {
    out.add(['data', ...node.path].join('.'));
  }
  node.children.forEach((c) => addSubtree(c, out));
}
