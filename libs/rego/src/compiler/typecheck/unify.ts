import { Term } from '../../ast/ast';
import { canonical } from '../../values/order';
import { constantValue } from '../constant';
import { TypeEnv } from './env';
import { ArrayType, compareTypes, isAnyAll, MaybeType, ObjectType, or, T_ANY, Type } from './types';
import { isNil, keysOf, select, unknownAsAny, valuesOf } from './type-select';

/** Unification of terms with types, as OPA's `ast/check.go` does it. */
export function unify1(env: TypeEnv, term: Term, tpe: MaybeType, union: boolean): boolean {
  switch (term.type) {
    case 'array':
    case 'object':
    case 'set':
      return unify1Composite(env, term, tpe, union);
    case 'var':
      if (term.name === 'input' || term.name === 'data') {
        return unifies(env.get(term), tpe);
      }
      if (!union) {
        const exist = env.getVar(term.name);
        if (exist) {
          return unifies(exist, tpe);
        }
        env.putVar(term.name, tpe);
      } else {
        env.putVar(term.name, or(env.getVar(term.name), tpe));
      }
      return true;
    case 'call': {
      // OPA moves a nested call into an expression of its own with an output variable; that
      // variable has the call's result type, or none when the call did not check.
      const t = env.callTypes.get(term);
      return t === undefined ? true : unifies(t, tpe);
    }
    case 'arraycomp':
    case 'setcomp':
    case 'objectcomp': {
      // A comprehension over an argument the body leaves untyped (E11).
      const t = env.get(term);
      return unifies(t && unknownAsAny(t), tpe);
    }
    case 'scalar':
    case 'ref':
      return unifies(env.get(term), tpe);
  }
}

function unify1Composite(
  env: TypeEnv,
  term: Extract<Term, { type: 'array' | 'object' | 'set' }>,
  tpe: MaybeType,
  union: boolean,
): boolean {
  if (tpe?.kind === 'any') {
    if (isAnyAll(tpe)) {
      for (const x of members(term)) {
        unify1(env, x, T_ANY, true);
      }
      return true;
    }
    let ok = false;
    for (const t of tpe.of) {
      ok = unify1(env, term, t, true) || ok;
    }
    return ok;
  }
  if (term.type === 'array') {
    return tpe?.kind === 'array' && unify1Array(env, term.items, tpe, union);
  }
  if (term.type === 'set') {
    if (tpe?.kind !== 'set') {
      return false;
    }
    const of = valuesOf(tpe);
    return term.items.every((x) => unify1(env, x, of, union));
  }
  return tpe?.kind === 'object' && unify1Object(env, term.pairs, tpe, union);
}

function members(term: Extract<Term, { type: 'array' | 'object' | 'set' }>): Term[] {
  return term.type === 'object' ? term.pairs.flat() : term.items;
}

function unify1Array(env: TypeEnv, items: Term[], tpe: ArrayType, union: boolean): boolean {
  if (items.length !== tpe.static.length && !tpe.dynamic) {
    return false;
  }
  return items.every((x, i) =>
    unify1(env, x, i < tpe.static.length ? tpe.static[i] : tpe.dynamic, union),
  );
}

function unify1Object(
  env: TypeEnv,
  pairs: [Term, Term][],
  tpe: ObjectType,
  union: boolean,
): boolean {
  if (pairs.length !== tpe.static.length && !tpe.dynamic?.value) {
    return false;
  }
  for (const [k, v] of pairs) {
    const key = constantValue(k);
    if (key !== undefined) {
      const child = select(tpe, key);
      if (!child || !unify1(env, v, child, union)) {
        return false;
      }
    } else {
      unify1(env, v, T_ANY, union);
    }
  }
  return true;
}

/** A term OPA holds in a variable at this point: a var, or a nested call's output. */
function isVarLike(t: Term): boolean {
  return (t.type === 'var' && t.name !== 'input' && t.name !== 'data') || t.type === 'call';
}

/** OPA's `unify2`: both sides of `=`. */
export function unify2(
  env: TypeEnv,
  a: Term,
  typeA: MaybeType,
  b: Term,
  typeB: MaybeType,
): boolean {
  const nilA = isNil(typeA);
  const nilB = isNil(typeB);
  if (nilA && !nilB) {
    return unify1(env, a, typeB, false);
  }
  if (nilB && !nilA) {
    return unify1(env, b, typeA, false);
  }
  if (!nilA && !nilB) {
    return unifies(typeA, typeB);
  }
  if (unify2Structural(env, a, b)) {
    return true;
  }
  // Both sides hold unknown parts and no rule above matches them member by member: typically a
  // comprehension, a set or a reference built from a function argument the body leaves untyped
  // (`g(t, typ) := [{"type": typ} | …]`) (issue 5234, E11).
  if (typeA === undefined && isVarLike(a)) {
    return unify1(env, a, unknownAsAny(typeB), false);
  }
  if (typeB === undefined && isVarLike(b)) {
    return unify1(env, b, unknownAsAny(typeA), false);
  }
  return unifies(unknownAsAny(typeA), unknownAsAny(typeB));
}

function unify2Structural(env: TypeEnv, a: Term, b: Term): boolean {
  if (a.type === 'array') {
    return unify2Array(env, a, b);
  }
  if (a.type === 'object') {
    return unify2Object(env, a, b);
  }
  if (isVarLike(a)) {
    if (isVarLike(b)) {
      return unify1(env, a, T_ANY, false) && unify1(env, b, env.get(a), false);
    }
    if (b.type === 'array') {
      return unify2Array(env, b, a);
    }
    if (b.type === 'object') {
      return unify2Object(env, b, a);
    }
  }
  return false;
}

function unify2Array(env: TypeEnv, a: Extract<Term, { type: 'array' }>, b: Term): boolean {
  if (b.type === 'array') {
    return (
      a.items.length === b.items.length &&
      a.items.every((x, i) => unify2(env, x, env.get(x), b.items[i], env.get(b.items[i])))
    );
  }
  if (isVarLike(b)) {
    return unify1(env, a, T_ANY, false) && unify1(env, b, env.get(a), false);
  }
  return false;
}

function keyOf(t: Term): string {
  const v = constantValue(t);
  return v !== undefined
    ? 'c' + canonical(v)
    : t.type === 'var'
      ? 'v' + t.name
      : `x${t.type}:${t.loc.row}:${t.loc.col}`;
}

function unify2Object(env: TypeEnv, a: Extract<Term, { type: 'object' }>, b: Term): boolean {
  if (b.type === 'object') {
    const other = new Map(b.pairs.map(([k, v]) => [keyOf(k), v]));
    const shared = a.pairs.filter(([k]) => other.has(keyOf(k)));
    if (a.pairs.length !== b.pairs.length || shared.length !== b.pairs.length) {
      return false;
    }
    return shared.every(([k, v]) => {
      const w = other.get(keyOf(k)) as Term;
      return unify2(env, v, env.get(v), w, env.get(w));
    });
  }
  if (isVarLike(b)) {
    return unify1(env, a, T_ANY, false) && unify1(env, b, env.get(a), false);
  }
  return false;
}

/** OPA's `unifies`: whether values of the two types can be equal. */
export function unifies(a: MaybeType, b: MaybeType): boolean {
  if (!a || !b) {
    return false;
  }
  if (a.kind === 'any' && unifiesAny(a.of, b)) {
    return true;
  }
  if (b.kind === 'any' && unifiesAny(b.of, a)) {
    return true;
  }
  if (a.kind === 'any' || b.kind === 'any') {
    return false;
  }
  switch (a.kind) {
    case 'null':
    case 'boolean':
    case 'number':
    case 'string':
      return a.kind === b.kind;
    case 'array':
      return b.kind === 'array' && unifiesArrays(a, b);
    case 'object':
      return b.kind === 'object' && unifiesObjects(a, b);
    case 'set':
      return b.kind === 'set' && unifies(valuesOf(a), valuesOf(b));
    case 'function':
      return (
        b.kind === 'function' &&
        a.args.length === b.args.length &&
        a.args.every((x, i) => unifies(x, b.args[i]))
      );
  }
}

function unifiesAny(of: Type[], b: Type): boolean {
  if (b.kind === 'function') {
    return false;
  }
  return of.length === 0 || of.some((x) => unifies(x, b));
}

function unifiesArrays(a: ArrayType, b: ArrayType): boolean {
  const stat = (x: ArrayType, y: ArrayType): boolean =>
    x.static.every((t, i) => unifies(t, i < y.static.length ? y.static[i] : y.dynamic));
  return stat(a, b) && stat(b, a) && (!a.dynamic || !b.dynamic || unifies(a.dynamic, b.dynamic));
}

function unifiesObjects(a: ObjectType, b: ObjectType): boolean {
  const stat = (x: ObjectType, y: ObjectType): boolean =>
    x.static.every((p) => unifies(p.value, select(y, p.key)));
  return (
    stat(a, b) &&
    stat(b, a) &&
    (!a.dynamic?.value || !b.dynamic?.value || unifies(a.dynamic.value, b.dynamic.value))
  );
}

export { compareTypes, keysOf };
