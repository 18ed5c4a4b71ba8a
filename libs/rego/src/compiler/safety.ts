import { CallTarget, Expr, Location, Term } from '../ast/ast';
import { RegoErrorDetail } from '../errors';
import { displayName, exprVarsDeep, exprVarsShallow, patternVars, termVarsDeep } from './vars';

/** Arity of a call target (undefined when unknown). */
export type ArityOf = (t: CallTarget) => number | undefined;

interface Info {
  ins: Set<string>;
  outs: Set<string>;
}

/**
 * Orders body expressions so that every var is bound before it is read (OPA's safety
 * reordering) and reports vars that can never be bound.
 */
export class Safety {
  constructor(
    private readonly arityOf: ArityOf,
    private readonly errors: RegoErrorDetail[],
  ) {}

  /** Reorders `body` in place; returns the set of vars safe after it. */
  body(body: Expr[], safe0: Set<string>, visible: Set<string>): Set<string> {
    liftBindingRefs(body);
    const level = new Set<string>(visible);
    body.forEach((e) => exprVarsShallow(e, level));
    const safe = new Set(safe0);
    const pending = [...body];
    const ordered: Expr[] = [];
    while (pending.length > 0) {
      const idx = pending.findIndex((e) => this.ready(e, safe, level, pending));
      if (idx < 0) {
        this.reportUnsafe(pending, safe, level);
        ordered.push(...pending);
        break;
      }
      const e = pending.splice(idx, 1)[0];
      const info = this.info(e, level, pending);
      this.nested(e, safe, level);
      info.outs.forEach((v) => safe.add(v));
      ordered.push(e);
    }
    body.splice(0, body.length, ...ordered);
    return safe;
  }

  /** Checks that the vars of a head (or comprehension head) term are safe. */
  checkTerm(t: Term, safe: Set<string>, visible: Set<string>, loc: Location): void {
    this.nestedTerm(t, safe, visible);
    const vs = new Set<string>();
    this.scan(t, 'in', { ins: vs, outs: vs }, visible);
    for (const v of [...vs].sort()) {
      if (!safe.has(v)) {
        this.errors.push({
          code: 'rego_unsafe_var_error',
          message: `var ${displayName(v)} is unsafe`,
          location: loc,
        });
      }
    }
  }

  private ready(e: Expr, safe: Set<string>, level: Set<string>, pending: Expr[]): boolean {
    const info = this.info(e, level, pending);
    for (const v of info.ins) {
      if (!safe.has(v)) {
        return false;
      }
    }
    if (!e.negated && (e.kind === 'unify' || e.kind === 'assign')) {
      const l = [...patternVars(e.left, new Set())].every((v) => safe.has(v));
      const r = [...patternVars(e.right, new Set())].every((v) => safe.has(v));
      const both =
        (e.left.type === 'array' && e.right.type === 'array') ||
        (e.left.type === 'object' && e.right.type === 'object');
      return l || r || both;
    }
    return true;
  }

  private info(e: Expr, level: Set<string>, pending: Expr[]): Info {
    const acc: Info = { ins: new Set(), outs: new Set() };
    switch (e.kind) {
      case 'term': {
        const t = e.term;
        const arity = t.type === 'call' && t.target ? this.arityOf(t.target) : undefined;
        if (t.type === 'call' && arity !== undefined && t.args.length === arity + 1) {
          t.args.slice(0, arity).forEach((a) => this.scan(a, 'in', acc, level));
          this.scan(t.args[arity], 'out', acc, level);
        } else {
          this.scan(t, 'in', acc, level);
        }
        break;
      }
      case 'unify':
      case 'assign':
        this.scan(e.left, 'out', acc, level);
        this.scan(e.right, 'out', acc, level);
        break;
      case 'some':
        break;
      case 'somein':
        this.scan(e.domain, 'in', acc, level);
        if (e.key) {
          this.scan(e.key, 'out', acc, level);
        }
        this.scan(e.value, 'out', acc, level);
        break;
      case 'every': {
        this.scan(e.domain, 'in', acc, level);
        const inner = new Set<string>();
        e.body.forEach((x) => exprVarsDeep(x, inner));
        inner.forEach((v) => {
          if (level.has(v) && v !== e.value.name && v !== e.key?.name) {
            acc.ins.add(v);
          }
        });
        break;
      }
    }
    e.withs.forEach((w) => !w.resolved?.mock && this.scan(w.value, 'in', acc, level));
    if (e.negated) {
      const elsewhere = new Set<string>();
      pending.filter((x) => x !== e).forEach((x) => exprVarsDeep(x, elsewhere));
      acc.outs.forEach((v) => {
        if (elsewhere.has(v) || !v.startsWith('$_')) {
          acc.ins.add(v);
        }
      });
      acc.outs.clear();
    }
    return acc;
  }

  private scan(t: Term, mode: 'in' | 'out', acc: Info, capture: Set<string>): void {
    switch (t.type) {
      case 'scalar':
        return;
      case 'var':
        (mode === 'out' ? acc.outs : acc.ins).add(t.name);
        return;
      case 'ref': {
        const h = t.terms[0];
        if (h.type === 'var') {
          if (h.name !== 'data' && h.name !== 'input') {
            acc.ins.add(h.name);
          }
        } else {
          this.scan(h, 'in', acc, capture);
        }
        for (const x of t.terms.slice(1)) {
          if (x.type === 'var') {
            acc.outs.add(x.name);
          } else {
            this.scan(x, x.type === 'array' || x.type === 'object' ? 'out' : 'in', acc, capture);
          }
        }
        return;
      }
      case 'array':
        t.items.forEach((x) => this.scan(x, mode, acc, capture));
        return;
      case 'object':
        t.pairs.forEach(([k, v]) => {
          this.scan(k, 'in', acc, capture);
          this.scan(v, mode, acc, capture);
        });
        return;
      case 'set':
        t.items.forEach((x) => this.scan(x, 'in', acc, capture));
        return;
      case 'call':
        t.args.forEach((x) => this.scan(x, 'in', acc, capture));
        return;
      case 'arraycomp':
      case 'objectcomp':
      case 'setcomp':
      default: {
        const deep = termVarsDeep(t, new Set());
        deep.forEach((v) => {
          if (capture.has(v)) {
            acc.ins.add(v);
          }
        });
      }
    }
  }

  /** Processes comprehension and `every` bodies once their enclosing expression is placed. */
  private nested(e: Expr, safe: Set<string>, level: Set<string>): void {
    const terms: Term[] = [];
    switch (e.kind) {
      case 'term':
        terms.push(e.term);
        break;
      case 'unify':
      case 'assign':
        terms.push(e.left, e.right);
        break;
      case 'somein':
        terms.push(e.domain);
        break;
      case 'every': {
        terms.push(e.domain);
        const inner = new Set(safe);
        inner.add(e.value.name);
        if (e.key) {
          inner.add(e.key.name);
        }
        this.body(e.body, inner, level);
        break;
      }
      case 'some':
        break;
    }
    e.withs.forEach((w) => terms.push(w.value));
    terms.forEach((t) => this.nestedTerm(t, safe, level));
  }

  private nestedTerm(t: Term, safe: Set<string>, level: Set<string>): void {
    switch (t.type) {
      case 'ref':
        t.terms.forEach((x) => this.nestedTerm(x, safe, level));
        return;
      case 'array':
      case 'set':
        t.items.forEach((x) => this.nestedTerm(x, safe, level));
        return;
      case 'object':
        t.pairs.forEach(([k, v]) => {
          this.nestedTerm(k, safe, level);
          this.nestedTerm(v, safe, level);
        });
        return;
      case 'call':
        t.args.forEach((x) => this.nestedTerm(x, safe, level));
        return;
      case 'arraycomp':
      case 'setcomp': {
        const after = this.body(t.body, safe, level);
        this.checkTerm(t.term, after, new Set([...level, ...after]), t.loc);
        return;
      }
      case 'objectcomp': {
        const after = this.body(t.body, safe, level);
        this.checkTerm(t.key, after, new Set([...level, ...after]), t.loc);
        this.checkTerm(t.value, after, new Set([...level, ...after]), t.loc);
        return;
      }
      case 'scalar':
      case 'var':
      default:
        return;
    }
  }

  private reportUnsafe(pending: Expr[], safe: Set<string>, level: Set<string>): void {
    const seen = new Set<string>();
    for (const e of pending) {
      const info = this.info(e, level, pending);
      const missing = [...info.ins].filter((v) => !safe.has(v));
      const vars = missing.length > 0 ? missing : [...info.outs];
      for (const v of [...vars].sort()) {
        if (!safe.has(v) && !seen.has(v)) {
          seen.add(v);
          this.errors.push({
            code: 'rego_unsafe_var_error',
            message: `var ${displayName(v)} is unsafe`,
            location: e.loc,
          });
        }
      }
    }
  }
}

let lifted = 0;

// `x == input.xs[x]`: OPA counts the vars of a ref among a call's arguments as outputs of the call
// (the ref enumerates them), so `x` is safe there.
function liftBindingRefs(body: Expr[]): void {
  for (let i = 0; i < body.length; i++) {
    const e = body[i];
    if (e.kind !== 'term' || e.negated || e.term.type !== 'call') {
      continue;
    }
    const call = e.term;
    const plain = new Set(call.args.filter((a) => a.type === 'var').map((a) => a.name));
    const before: Expr[] = [];
    call.args.forEach((a, j) => {
      if (a.type !== 'ref') {
        return;
      }
      const bound = a.terms.slice(1).some((x) => x.type === 'var' && plain.has(x.name));
      if (bound) {
        const v: Term = { type: 'var', name: `$r${++lifted}`, loc: a.loc, slot: -1 };
        before.push({
          kind: 'unify',
          left: v,
          right: a,
          negated: false,
          withs: e.withs,
          loc: e.loc,
        });
        call.args[j] = v;
      }
    });
    if (before.length > 0) {
      body.splice(i, 0, ...before);
      i += before.length;
    }
  }
}
