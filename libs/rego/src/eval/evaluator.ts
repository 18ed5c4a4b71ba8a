import { CallTerm, Expr, Term, VarTerm } from '../ast/ast';
import { Program } from '../compiler/compiler';
import { RegoEvalError } from '../errors';
import { RegoObject, RegoSet, Value, valuesEqual } from '../values/value';
import { BuiltinContext, PatternFinding, PatternSets } from '../builtins/types';
import { callTarget } from './calls';
import { EvalState, Frame, K, NO_MOCKS, VK } from './state';

const NO_OVERRIDES: EvalState['overrides'] = [];
import { applyWiths } from './with';
import { comprehension, printCall } from './comprehension';
import { hasUnbound, unify, unifyValue } from './unify';
import { ENUM, direct } from './direct';
import { evalRef } from './refs';
import { someIn } from './some-in';

export interface EvalLimits {
  /** Wall-clock budget in ms; the clock is first read at the first budget check (step 1,024). */
  timeoutMs: number;
  /** Maximum evaluation steps. */
  maxSteps: number;
}

/** Top-down evaluator over a compiled program (one instance per evaluation). */
export class Evaluator implements BuiltinContext {
  state: EvalState;
  steps = 0;
  readonly ctx: BuiltinContext = this;
  private now: bigint | undefined;
  private deadline: number | undefined;
  private onceCache: Map<string, Value> | undefined;

  constructor(
    readonly program: Program,
    readonly data: Value,
    input: Value | undefined,
    readonly strict: boolean,
    private readonly limits: EvalLimits,
    private readonly clock: {
      now?: Date;
      print?: (line: string) => void;
      patternSets?: PatternSets;
    },
  ) {
    this.state = {
      input,
      overrides: NO_OVERRIDES,
      mocks: NO_MOCKS,
      memo: new Map(),
      fnMemo: undefined,
    };
  }

  nowNs(): bigint {
    this.now ??= BigInt(this.clock.now ? this.clock.now.getTime() : Date.now()) * 1_000_000n;
    return this.now;
  }

  once(key: string, make: () => Value): Value {
    this.onceCache ??= new Map();
    let v = this.onceCache.get(key);
    if (v === undefined) {
      v = make();
      this.onceCache.set(key, v);
    }
    return v;
  }

  print(line: string): void {
    this.clock.print?.(line);
  }

  patternFindings(name: string, text: string): PatternFinding[] {
    return this.clock.patternSets?.findings(name, text) ?? [];
  }

  tick(n = 1): void {
    this.steps += n;
    if ((this.steps & 1023) < n || this.steps > this.limits.maxSteps) {
      // Reading the clock costs ~100 ns, so short evaluations never read it: the deadline starts at
      // the first check and is compared on every 1,024th step after that.
      const now = performance.now();
      this.deadline ??= now + this.limits.timeoutMs;
      if (this.steps > this.limits.maxSteps || now > this.deadline) {
        throw new RegoEvalError('eval_cancel_error', 'evaluation budget exceeded (timeout)');
      }
    }
  }

  body(body: Expr[], i: number, f: Frame, k: K): boolean {
    for (; i < body.length; i++) {
      const e = body[i];
      if (e.withs.length > 0) {
        break;
      }
      if (e.kind === 'term') {
        const t = e.term;
        if (t.type === 'call' && t.args.length !== this.arity(t)) {
          break;
        }
        const v = direct(this, t, f);
        if (v === ENUM) {
          break;
        }
        this.tick();
        if (e.negated ? v !== undefined && v !== false : v === undefined || v === false) {
          return false;
        }
      } else if (
        (e.kind === 'assign' || e.kind === 'unify') &&
        !e.negated &&
        e.left.type === 'var' &&
        f[e.left.slot] === undefined
      ) {
        const v = direct(this, e.right, f);
        if (v === ENUM) {
          break;
        }
        this.tick();
        if (v === undefined) {
          return false;
        }
        const slot = e.left.slot;
        f[slot] = v;
        const r = this.body(body, i + 1, f, k);
        f[slot] = undefined;
        return r;
      } else if (
        e.kind === 'somein' &&
        !e.negated &&
        e.value.type === 'var' &&
        f[e.value.slot] === undefined &&
        (!e.key || (e.key.type === 'var' && f[e.key.slot] === undefined))
      ) {
        return someIn(
          this,
          body,
          i,
          e.value.slot,
          e.key?.type === 'var' ? e.key.slot : -1,
          e.domain,
          f,
          k,
        );
      } else {
        break;
      }
    }
    if (i === body.length) {
      return k();
    }
    return this.expr(body[i], f, () => this.body(body, i + 1, f, k));
  }

  expr(e: Expr, f: Frame, k: K): boolean {
    this.tick();
    if (e.withs.length > 0) {
      return applyWiths(this, e, f, k);
    }
    if (e.negated) {
      return this.exprInner(e, f, () => true) ? false : k();
    }
    return this.exprInner(e, f, k);
  }

  exprInner(e: Expr, f: Frame, k: K): boolean {
    switch (e.kind) {
      case 'term': {
        const t = e.term;
        if (
          t.type === 'call' &&
          t.target?.kind === 'builtin' &&
          t.target.name === 'print' &&
          this.state.mocks.size === 0
        ) {
          return printCall(this, t, f, k);
        }
        if (t.type === 'call') {
          const arity = this.arity(t);
          if (arity !== undefined && t.args.length === arity + 1) {
            const out = t.args[arity];
            return callTarget(this, t, arity, f, (v) => this.unifyValue(out, v, f, k));
          }
        }
        return this.term(t, f, (v) => v !== false && k());
      }
      case 'unify':
      case 'assign':
        return this.unify(e.left, e.right, f, k);
      case 'some':
        return k();
      case 'somein':
        return this.term(e.domain, f, (coll) =>
          this.iterate(coll, (key, val) =>
            this.unifyValue(e.value, val, f, () =>
              e.key ? this.unifyValue(e.key, key, f, k) : k(),
            ),
          ),
        );
      case 'every':
        return this.term(e.domain, f, (coll) => {
          // OPA's evalEvery: a domain that is not a collection makes `every` fail (not hold vacuously).
          if (!Array.isArray(coll) && !(coll instanceof RegoObject) && !(coll instanceof RegoSet)) {
            return false;
          }
          const failed = this.iterate(coll, (key, val) => {
            const ok = this.bindVar(e.value, val, f, () =>
              e.key
                ? this.bindVar(e.key, key, f, () => this.body(e.body, 0, f, () => true))
                : this.body(e.body, 0, f, () => true),
            );
            return !ok;
          });
          return failed ? false : k();
        });
    }
  }

  arity(t: CallTerm): number | undefined {
    if (t.arityCache === undefined) {
      const target = t.target;
      const def = target?.kind === 'builtin' ? this.program.builtins.get(target.name) : undefined;
      const a =
        !target || def?.variadic
          ? undefined
          : target.kind === 'builtin'
            ? def?.arity
            : this.program.functionArity.get(target.path.join('.'));
      t.arityCache = a ?? -1;
    }
    return t.arityCache < 0 ? undefined : t.arityCache;
  }

  /** Calls `fn(key, value)` for each element; stops when it returns true. */
  iterate(coll: Value, fn: (key: Value, val: Value) => boolean): boolean {
    if (Array.isArray(coll)) {
      for (let i = 0; i < coll.length; i++) {
        this.tick();
        if (fn(i, coll[i])) {
          return true;
        }
      }
    } else if (coll instanceof RegoObject) {
      for (const [key, val] of coll.entries()) {
        this.tick();
        if (fn(key, val)) {
          return true;
        }
      }
    } else if (coll instanceof RegoSet) {
      for (const v of coll.values()) {
        this.tick();
        if (fn(v, v)) {
          return true;
        }
      }
    }
    return false;
  }

  bindVar(v: VarTerm, val: Value, f: Frame, k: K): boolean {
    const cur = f[v.slot];
    if (cur !== undefined) {
      return valuesEqual(cur, val) && k();
    }
    f[v.slot] = val;
    const r = k();
    f[v.slot] = undefined;
    return r;
  }

  unify(a: Term, b: Term, f: Frame, k: K): boolean {
    return unify(this, a, b, f, k);
  }

  /** Unifies a (pattern) term with a value, binding its unbound vars. */
  unifyValue(t: Term, v: Value, f: Frame, k: K): boolean {
    return unifyValue(this, t, v, f, k);
  }

  hasUnbound(t: Term, f: Frame): boolean {
    return hasUnbound(t, f);
  }

  /** Enumerates the values of a term. */
  term(t: Term, f: Frame, vk: VK): boolean {
    if (t.type === 'ref' || t.type === 'call') {
      const v = direct(this, t, f);
      if (v !== ENUM) {
        return v !== undefined && vk(v);
      }
    }
    switch (t.type) {
      case 'scalar':
        return vk(t.value);
      case 'var': {
        const v = f[t.slot];
        return v !== undefined && vk(v);
      }
      case 'ref':
        return evalRef(this, t, f, vk);
      case 'array':
        return this.items(t.items, 0, [], f, (xs) => vk(xs));
      case 'set':
        return this.items(t.items, 0, [], f, (xs) => vk(RegoSet.from(xs)));
      case 'object':
        return this.pairs(t.pairs, 0, new RegoObject(), f, vk);
      case 'call':
        return callTarget(this, t, t.args.length, f, vk);
      case 'arraycomp':
      case 'setcomp':
      case 'objectcomp':
        return comprehension(this, t, f, vk);
    }
  }

  items(ts: Term[], i: number, acc: Value[], f: Frame, k: (vs: Value[]) => boolean): boolean {
    if (i === ts.length) {
      return k(acc.slice());
    }
    return this.term(ts[i], f, (v) => {
      acc[i] = v;
      return this.items(ts, i + 1, acc, f, k);
    });
  }

  private pairs(ps: [Term, Term][], i: number, acc: RegoObject, f: Frame, vk: VK): boolean {
    if (i === ps.length) {
      return vk(RegoObject.from(acc.entries()));
    }
    return this.term(ps[i][0], f, (key) =>
      this.term(ps[i][1], f, (v) => {
        acc.set(key, v);
        const r = this.pairs(ps, i + 1, acc, f, vk);
        acc.delete(key);
        return r;
      }),
    );
  }
}
