import { CallTarget, Expr, Location, RefTerm, Term, VarTerm, WithModifier } from '../ast/ast';
import { RegoErrorDetail } from '../errors';
import { BuiltinDef } from '../builtins/types';

/** What name resolution needs to know about the rest of the policy. */
export interface ResolveEnv {
  pkgPath: string[];
  /** Names of rules (first head element) in this package. */
  ruleRoots: Set<string>;
  imports: Map<string, Term[]>;
  /** Paths (joined with '.') of user functions, with their arity. */
  functions: Map<string, number>;
  builtins: Map<string, BuiltinDef>;
  errors: RegoErrorDetail[];
}

type Scope = Map<string, string>[];

let counter = 0;

/** Resolves names in rule heads and bodies and renames declared locals so that scopes never clash. */
export class Resolver {
  constructor(private readonly env: ResolveEnv) {}

  newScope(): Scope {
    return [new Map<string, string>()];
  }

  declare(scope: Scope, v: VarTerm, assign = false): VarTerm {
    if (v.name.startsWith('$_')) {
      return v;
    }
    if (v.name === 'data' || v.name === 'input') {
      this.env.errors.push({
        code: 'rego_compile_error',
        message: `variables must not shadow ${v.name} (use a different variable name)`,
        location: v.loc,
      });
    }
    if (assign && scope[scope.length - 1].has(v.name)) {
      this.env.errors.push({
        code: 'rego_compile_error',
        message: `var ${v.name} assigned above`,
        location: v.loc,
      });
    }
    const fresh = `${v.name}$${++counter}`;
    scope[scope.length - 1].set(v.name, fresh);
    return { ...v, name: fresh };
  }

  /** Declares a var under its own name (function arguments). */
  declareSame(scope: Scope, name: string): void {
    scope[scope.length - 1].set(name, name);
  }

  body(exprs: Expr[], scope: Scope): Expr[] {
    return exprs.map((e) => this.expr(e, scope));
  }

  private expr(e: Expr, scope: Scope): Expr {
    const withs = e.withs.map((w) => this.withMod(w, scope));
    switch (e.kind) {
      case 'term':
        return { ...e, term: this.term(e.term, scope), withs };
      case 'unify':
        return { ...e, left: this.term(e.left, scope), right: this.term(e.right, scope), withs };
      case 'assign': {
        const right = this.term(e.right, scope);
        const left = this.declarePattern(e.left, scope, true);
        return { ...e, left, right, withs };
      }
      case 'some':
        return { ...e, vars: e.vars.map((v) => this.declare(scope, v)), withs };
      case 'somein': {
        const domain = this.term(e.domain, scope);
        const key = e.key ? this.declarePattern(e.key, scope) : undefined;
        const value = this.declarePattern(e.value, scope);
        return { ...e, key, value, domain, withs };
      }
      case 'every': {
        const domain = this.term(e.domain, scope);
        const inner: Scope = [...scope, new Map<string, string>()];
        const key = e.key ? this.declare(inner, e.key) : undefined;
        const value = this.declare(inner, e.value);
        return { ...e, key, value, domain, body: this.body(e.body, inner), withs };
      }
    }
  }

  /** Vars in an assignment/`some … in` pattern are declared; other terms resolve normally. */
  private declarePattern(t: Term, scope: Scope, assign = false): Term {
    switch (t.type) {
      case 'var':
        return this.declare(scope, t, assign);
      case 'array':
        return { ...t, items: t.items.map((x) => this.declarePattern(x, scope, assign)) };
      case 'object':
        return {
          ...t,
          pairs: t.pairs.map(([k, v]) => [
            this.term(k, scope),
            this.declarePattern(v, scope, assign),
          ]),
        };
      case 'arraycomp':
      case 'call':
      case 'objectcomp':
      case 'ref':
      case 'scalar':
      case 'set':
      case 'setcomp':
      default:
        return this.term(t, scope);
    }
  }

  private lookup(scope: Scope, name: string): string | undefined {
    for (let i = scope.length - 1; i >= 0; i--) {
      const n = scope[i].get(name);
      if (n !== undefined) {
        return n;
      }
    }
    return undefined;
  }

  /** Resolves a var to a local var or to a ref (input, data, import or rule of the package). */
  private headOf(v: VarTerm, scope: Scope): Term[] {
    const local = this.lookup(scope, v.name);
    if (local !== undefined) {
      return [{ ...v, name: local }];
    }
    if (v.name === 'input' || v.name === 'data') {
      return [v];
    }
    const imp = this.env.imports.get(v.name);
    if (imp) {
      return imp.map((x) => ({ ...x, loc: v.loc }));
    }
    if (this.env.ruleRoots.has(v.name)) {
      return [{ ...v, name: 'data' }, ...[...this.env.pkgPath, v.name].map((p) => str(p, v.loc))];
    }
    return [v];
  }

  term(t: Term, scope: Scope): Term {
    switch (t.type) {
      case 'scalar':
        return t;
      case 'var': {
        const h = this.headOf(t, scope);
        if (
          h.length === 1 &&
          h[0].type === 'var' &&
          h[0].name !== 'data' &&
          h[0].name !== 'input'
        ) {
          return h[0];
        }
        return { type: 'ref', terms: h, loc: t.loc };
      }
      case 'ref': {
        const head =
          t.terms[0].type === 'var'
            ? this.headOf(t.terms[0], scope)
            : [this.term(t.terms[0], scope)];
        return { ...t, terms: [...head, ...t.terms.slice(1).map((x) => this.term(x, scope))] };
      }
      case 'array':
      case 'set':
        return { ...t, items: t.items.map((x) => this.term(x, scope)) };
      case 'object':
        return { ...t, pairs: t.pairs.map(([k, v]) => [this.term(k, scope), this.term(v, scope)]) };
      case 'call': {
        const args = t.args.map((x) => this.term(x, scope));
        const target = this.callTarget(t.op, scope, t.loc);
        return { ...t, args, target };
      }
      case 'arraycomp':
      case 'setcomp': {
        const inner: Scope = [...scope, new Map<string, string>()];
        const body = this.body(t.body, inner);
        return { ...t, body, term: this.term(t.term, inner) };
      }
      case 'objectcomp': {
        const inner: Scope = [...scope, new Map<string, string>()];
        const body = this.body(t.body, inner);
        return { ...t, body, key: this.term(t.key, inner), value: this.term(t.value, inner) };
      }
    }
  }

  /** Names the function a call refers to: a user function path or a built-in. */
  callTarget(op: RefTerm, scope: Scope, loc: Location): CallTarget | undefined {
    const path = this.opPath(op, scope);
    if (path && path[0] === 'data') {
      const key = path.slice(1).join('.');
      if (this.env.functions.has(key)) {
        return { kind: 'function', path: path.slice(1) };
      }
    }
    const name = opName(op);
    if (name !== undefined && this.env.builtins.has(name)) {
      return { kind: 'builtin', name };
    }
    const shown = path && path[0] === 'data' ? path.join('.') : (name ?? '?');
    this.env.errors.push({
      code: 'rego_type_error',
      message: `undefined function ${shown}`,
      location: loc,
    });
    return undefined;
  }

  /** Static path of an operator ref after resolving its head, or undefined. */
  private opPath(op: RefTerm, scope: Scope): string[] | undefined {
    const h = op.terms[0];
    if (h.type !== 'var') {
      return undefined;
    }
    const head = this.headOf(h, scope);
    const terms = [...head, ...op.terms.slice(1)];
    const out: string[] = [];
    for (const [i, x] of terms.entries()) {
      if (i === 0 && x.type === 'var') {
        out.push(x.name);
      } else if (x.type === 'scalar' && typeof x.value === 'string') {
        out.push(x.value);
      } else {
        return undefined;
      }
    }
    return out;
  }

  private withMod(w: WithModifier, scope: Scope): WithModifier {
    const value = this.term(w.value, scope);
    const path = this.opPath(w.target, scope);
    if (!path) {
      this.env.errors.push({
        code: 'rego_compile_error',
        message: 'with keyword target must reference existing input, data, or a function',
        location: w.loc,
      });
      return w;
    }
    const [root, ...rest] = path;
    let mock: CallTarget | undefined;
    if (w.value.type === 'var' || (w.value.type === 'ref' && w.value.terms[0].type === 'var')) {
      const vr: RefTerm =
        w.value.type === 'ref' ? w.value : { type: 'ref', terms: [w.value], loc: w.value.loc };
      const vp = this.opPath(vr, scope);
      if (vp && vp[0] === 'data' && this.env.functions.has(vp.slice(1).join('.'))) {
        mock = { kind: 'function', path: vp.slice(1) };
      } else if (!vp || vp[0] !== 'data') {
        const n = opName(vr);
        if (n !== undefined && this.env.builtins.has(n) && this.lookup(scope, n) === undefined) {
          mock = { kind: 'builtin', name: n };
        }
      }
    }
    if (root === 'input' || (root === 'data' && !this.env.functions.has(rest.join('.')))) {
      return { ...w, value, resolved: { kind: root, path: rest } };
    }
    const target = this.callTarget(w.target, scope, w.loc);
    if (!target) {
      return w;
    }
    const fnKey = target.kind === 'builtin' ? target.name : target.path.join('.');
    return { ...w, value, resolved: { kind: 'func', path: [], fnKey, mock, target } };
  }
}

function str(value: string, loc: Location): Term {
  return { type: 'scalar', value, loc };
}

/** Dotted name of an operator ref such as `strings.any_prefix_match`. */
export function opName(op: RefTerm): string | undefined {
  const parts: string[] = [];
  for (const [i, x] of op.terms.entries()) {
    if (i === 0 && x.type === 'var') {
      parts.push(x.name);
    } else if (x.type === 'scalar' && typeof x.value === 'string') {
      parts.push(x.value);
    } else {
      return undefined;
    }
  }
  return parts.join('.');
}
