import { CallTerm, Expr, Term, VarTerm } from '../../ast/ast';
import { Value } from '../../values/value';
import { constantValue } from '../constant';
import { walkTermOutsideClosures } from '../walk';
import { CompiledRule } from '../types';
import { ClosureTyper, TypeEnv, TypeNode } from './env';
import { builtinDecl } from './notation';
import { checkRefsInExpr, TypeErrorDetail } from './refs';
import { applySchemas, SchemaContext } from './schema-env';
import { insertType, putType } from './tree';
import { arrayOf, MaybeType, objectOf, setOf, T_ANY, Type } from './types';
import { isNil } from './type-select';
import { argsText, typeText } from './type-text';
import { unify2 } from './unify';
import { checkCall, checkWith } from './calls';

const noVisit = (): void => undefined;

let synthetic = 0;

/** Types it cannot know (`input`, base `data`) are `any`, which never fails. */
export class TypeChecker implements ClosureTyper {
  readonly data = new TypeNode(undefined);
  private readonly callTypes = new Map<CallTerm, MaybeType>();
  private readonly closureTypes = new Map<Term, MaybeType>();
  /** Types of the schemas of the schema set, converted once (OPA's `schemaTypes`). */
  private readonly schemaTypes = new Map<string, Type>();

  constructor(private readonly schemas?: SchemaContext) {}

  /** Forgets the types of calls and comprehensions once a rule set or query is checked. */
  forgetTerms(): void {
    this.callTypes.clear();
    this.closureTypes.clear();
  }

  /** The environment of a rule or query body: a fresh scope over the rule documents. */
  env(): TypeEnv {
    const env = new TypeEnv(this.data, this, this.callTypes);
    if (this.schemas?.input) {
      env.setRoot('input', this.schemas.input);
    }
    return env;
  }

  /** Checks a body in `env`; returns the errors (OPA's `CheckBody`). */
  checkBody(env: TypeEnv, body: Expr[]): TypeErrorDetail[] {
    const errors: TypeErrorDetail[] = [];
    for (const e of body) {
      const closureErrors = this.checkClosures(env, e);
      const synth = e.kind === 'somein' ? someInRef(e) : undefined;
      const refErrors = checkRefsInExpr(env, e, synth ? [synth.ref] : []);
      errors.push(...closureErrors, ...refErrors);
      for (const err of this.checkExpr(env, e, synth)) {
        // OPA drops an error caused by an unknown type when a closure or reference in the same
        // expression already has a more specific one.
        if (!((closureErrors.length > 0 || refErrors.length > 0) && err.nilCause)) {
          errors.push(err);
        }
      }
    }
    return errors;
  }

  /** The type of a comprehension: its body is checked in a scope of its own. */
  comprehensionType(env: TypeEnv, t: Term): MaybeType {
    return this.closureTypes.has(t) ? this.closureTypes.get(t) : this.closure(env, t).type;
  }

  /** Checks a comprehension's body (OPA's `checkClosures`) and records its type. */
  private closure(env: TypeEnv, t: Term): { type: MaybeType; errors: TypeErrorDetail[] } {
    const inner = env.wrap();
    const errors = this.checkBody(inner, (t as { body: Expr[] }).body);
    // OPA moves the calls of a comprehension's head into its body (rewriteExprTermsInBody).
    const head =
      t.type === 'objectcomp'
        ? [t.key, t.value]
        : t.type === 'arraycomp' || t.type === 'setcomp'
          ? [t.term]
          : [];
    head.forEach((x) => this.checkNestedCalls(inner, x, errors));
    let type: MaybeType;
    if (errors.length === 0) {
      if (t.type === 'arraycomp') {
        type = arrayOf([], inner.get(t.term));
      } else if (t.type === 'setcomp') {
        type = setOf(inner.get(t.term));
      } else if (t.type === 'objectcomp') {
        type = objectOf([], { key: inner.get(t.key), value: inner.get(t.value) });
      }
    }
    this.closureTypes.set(t, type);
    return { type, errors };
  }

  private checkClosures(env: TypeEnv, e: Expr): TypeErrorDetail[] {
    const errors: TypeErrorDetail[] = [];
    exprTerms(e).forEach((t) =>
      walkTermOutsideClosures(t, noVisit, (closure) => {
        errors.push(...this.closure(env, closure).errors);
      }),
    );
    return errors;
  }

  private checkExpr(
    env: TypeEnv,
    e: Expr,
    synth: { key: Term; ref: Term } | undefined,
  ): TypeErrorDetail[] {
    const errors: TypeErrorDetail[] = [];
    for (const w of e.withs) {
      pushIf(errors, checkWith(env, w));
    }
    if (errors.length > 0) {
      return errors;
    }
    const calls = (t: Term): void => this.checkNestedCalls(env, t, errors);
    switch (e.kind) {
      case 'term':
        if (e.term.type === 'call' && isDoubleEquals(e.term)) {
          // OPA's rewriteEquals: a `==` expression is checked as `=` (a match error when the two
          // sides cannot be equal).
          e.term.args.forEach(calls);
          pushIf(errors, this.checkEq(env, e.term.args[0], e.term.args[1], e));
        } else if (e.term.type === 'call') {
          e.term.args.forEach(calls);
          const err = checkCall(env, e.term, false, this.callTypes);
          if (err) {
            errors.push(err);
          }
        } else {
          calls(e.term);
        }
        break;
      case 'unify':
      case 'assign':
        calls(e.left);
        calls(e.right);
        pushIf(errors, this.checkEq(env, e.left, e.right, e));
        break;
      case 'somein':
        // OPA rewrites `some k, v in xs` to `v = xs[k]` (a fresh key when none is given).
        calls(e.domain);
        if (synth) {
          pushIf(errors, this.checkEq(env, e.value, synth.ref, e));
        }
        break;
      case 'every':
        calls(e.domain);
        break;
      case 'some':
        break;
    }
    return errors;
  }

  /** Checks the calls nested in a term (innermost first), as OPA's rewritten expressions. */
  private checkNestedCalls(env: TypeEnv, t: Term, errors: TypeErrorDetail[]): void {
    switch (t.type) {
      case 'call': {
        t.args.forEach((a) => this.checkNestedCalls(env, a, errors));
        pushIf(errors, checkCall(env, t, true, this.callTypes));
        return;
      }
      case 'ref':
        t.terms.forEach((x) => this.checkNestedCalls(env, x, errors));
        return;
      case 'array':
      case 'set':
        t.items.forEach((x) => this.checkNestedCalls(env, x, errors));
        return;
      case 'object':
        t.pairs.forEach(([k, v]) => {
          this.checkNestedCalls(env, k, errors);
          this.checkNestedCalls(env, v, errors);
        });
        return;
      case 'arraycomp':
      case 'objectcomp':
      case 'scalar':
      case 'setcomp':
      case 'var':
      default:
        return;
    }
  }

  private checkEq(env: TypeEnv, a: Term, b: Term, e: Expr): TypeErrorDetail | undefined {
    const typeA = env.get(a);
    const typeB = env.get(b);
    if (unify2(env, a, typeA, b, typeB)) {
      return undefined;
    }
    return {
      message: `match error\n\tleft  : ${typeText(typeA)}\n\tright : ${typeText(typeB)}`,
      location: e.loc,
      nilCause: isNil(typeA) || isNil(typeB),
    };
  }

  /** OPA's `checkRule`: checks the body, then records the rule's document or function type. */
  checkRule(rule: CompiledRule): TypeErrorDetail[] {
    const env = this.env();
    const annotations = this.schemas?.byRule.get(rule);
    const schemaErrors =
      annotations && this.schemas
        ? applySchemas(env, annotations, this.schemas, this.schemaTypes, rule.loc)
        : [];
    return [...schemaErrors, ...this.checkRuleBody(env, rule)];
  }

  private checkRuleBody(env: TypeEnv, rule: CompiledRule): TypeErrorDetail[] {
    const errors = this.checkBody(env, rule.body);
    // OPA moves the calls and comprehensions of a rule head into its body (rewriteExprTermsInHead).
    for (const t of [
      ...rule.tail,
      ...(rule.value ? [rule.value] : []),
      ...(rule.key ? [rule.key] : []),
    ]) {
      const e: Expr = { kind: 'term', term: t, negated: false, withs: [], loc: rule.loc };
      // Their references are checked there too: `f(x) := lower(x.y)` types `x` as `any`.
      errors.push(...this.checkClosures(env, e), ...checkRefsInExpr(env, e));
      this.checkNestedCalls(env, t, errors);
    }
    let path: Value[] = rule.path;
    if (errors.length > 0) {
      putType(this.data, path, T_ANY);
      return errors;
    }
    let type: MaybeType;
    if (rule.kind === 'func') {
      const args = rule.args ?? [];
      // Arguments the body never constrains are `any`.
      args.forEach((a) =>
        forEachVar(a, (v) => {
          if (!env.getVar(v.name)) {
            env.putVar(v.name, T_ANY);
          }
        }),
      );
      type = {
        kind: 'function',
        args: args.map((a) => env.get(a)),
        result: rule.value ? env.get(rule.value) : undefined,
      };
    } else if (rule.kind === 'single') {
      const value = rule.value ? env.get(rule.value) : undefined;
      const ground = groundPrefixLength(rule.tail);
      path = [...path, ...rule.tail.slice(0, ground).map((t) => constantValue(t) as Value)];
      type = ground < rule.tail.length ? nestedObject(env, rule.tail.slice(ground), value) : value;
    } else if (rule.tail.length === 0) {
      const key = rule.key ? env.get(rule.key) : undefined;
      type = key ? setOf(key) : undefined;
    }
    if (type) {
      insertType(this.data, path, type);
    }
    return [];
  }
}

/** OPA's `arityMismatchError` for a built-in called with the wrong number of operands. */
export function arityMismatch(name: string, args: Term[], output = false): string {
  const decl = builtinDecl(name);
  if (!decl) {
    return `${name}: arity mismatch`;
  }
  const env = new TypeChecker().env();
  const have = args.map((a) => typeText(a.type === 'var' ? undefined : env.get(a)));
  if (output) {
    // A nested call's generated output variable.
    have.push(typeText(undefined));
  }
  return `${name}: arity mismatch\n\thave: (${have.join(', ')})\n\twant: ${argsText(decl)}`;
}

function isDoubleEquals(t: Term): boolean {
  return (
    t.type === 'call' &&
    t.target?.kind === 'builtin' &&
    t.target.name === 'equal' &&
    t.args.length === 2
  );
}

function pushIf(errors: TypeErrorDetail[], e: TypeErrorDetail | undefined): void {
  if (e) {
    errors.push(e);
  }
}

/** The terms of an expression that closures can sit in. */
function exprTerms(e: Expr): Term[] {
  switch (e.kind) {
    case 'term':
      return [e.term];
    case 'unify':
    case 'assign':
      return [e.left, e.right];
    case 'somein':
      return [...(e.key ? [e.key] : []), e.value, e.domain];
    case 'every':
      // OPA walks into an `every` body for closures (its expressions are not checked).
      return [e.domain, ...e.body.flatMap(exprTerms)];
    case 'some':
      return [];
  }
}

/** `some k, v in xs` as OPA checks it: the reference `xs[k]` (fresh `k` when none is given). */
function someInRef(e: Extract<Expr, { kind: 'somein' }>): { key: Term; ref: Term } {
  const key: Term = e.key ?? { type: 'var', name: `$k${++synthetic}`, loc: e.loc, slot: -1 };
  const ref: Term =
    e.domain.type === 'ref'
      ? { type: 'ref', terms: [...e.domain.terms, key], loc: e.domain.loc }
      : { type: 'ref', terms: [e.domain, key], loc: e.domain.loc };
  return { key, ref };
}

function forEachVar(t: Term, f: (v: VarTerm) => void): void {
  switch (t.type) {
    case 'var':
      f(t);
      return;
    case 'array':
    case 'set':
      t.items.forEach((x) => forEachVar(x, f));
      return;
    case 'object':
      t.pairs.forEach(([k, v]) => {
        forEachVar(k, f);
        forEachVar(v, f);
      });
      return;
    case 'arraycomp':
    case 'call':
    case 'objectcomp':
    case 'ref':
    case 'scalar':
    case 'setcomp':
    default:
      return;
  }
}

function groundPrefixLength(tail: Term[]): number {
  let i = 0;
  while (i < tail.length && tail[i].type === 'scalar') {
    i++;
  }
  return i;
}

/** OPA's `nestedObject`: each element of a ref head's dynamic part is one level of object. */
function nestedObject(env: TypeEnv, path: Term[], value: MaybeType): MaybeType {
  if (path.length === 0) {
    return value;
  }
  const inner = nestedObject(env, path.slice(1), value);
  const key = env.get(path[0]);
  if (!inner || !key) {
    return undefined;
  }
  return objectOf([], { key, value: inner });
}
