import { Expr, Location, Term } from '../../ast/ast';
import { compareValues } from '../../values/order';
import { regoText } from '../../values/json';
import { Value } from '../../values/value';
import { displayName } from '../vars';
import { walkTermOutsideClosures } from '../walk';
import { extent, TypeEnv, TypeNode } from './env';
import { MaybeType, T_ANY, T_STRING, Type } from './types';
import { keysOf, select, unknownAsAny, valuesOf } from './type-select';
import { typeText } from './type-text';
import { unifies, unify1 } from './unify';

/** A type error before it gets its code: message (with detail lines) and where. */
export interface TypeErrorDetail {
  message: string;
  location: Location;
  /** Caused by a type that is unknown (OPA suppresses those next to a more specific error). */
  nilCause: boolean;
}

/**
 * OPA's `refChecker`: every reference in an expression (comprehension bodies excluded, `every`
 * bodies included) must select members its operand's type has; variables used as keys take the
 * key type of what they enumerate.
 */
export function checkRefsInExpr(env: TypeEnv, e: Expr, extra: Term[] = []): TypeErrorDetail[] {
  const errors: TypeErrorDetail[] = [];
  const visit = (term: Term): void =>
    walkTermOutsideClosures(term, (t) => {
      if (t.type === 'ref') {
        const err = checkRef(env, t.terms);
        if (err) {
          errors.push(err);
        }
      }
    });
  const visitExpr = (x: Expr): void => {
    switch (x.kind) {
      case 'term':
        visit(x.term);
        break;
      case 'unify':
      case 'assign':
        visit(x.left);
        visit(x.right);
        break;
      case 'somein':
        if (x.key) {
          visit(x.key);
        }
        visit(x.value);
        visit(x.domain);
        break;
      case 'every':
        visit(x.domain);
        x.body.forEach(visitExpr);
        break;
      case 'some':
        break;
    }
    // `with` values are not visited (OPA's refChecker stops at the expression's terms).
  };
  visitExpr(e);
  extra.forEach(visit);
  return errors;
}

function checkRef(env: TypeEnv, ref: Term[]): TypeErrorDetail | undefined {
  const head = ref[0];
  const fn = env.getRef(ref);
  if (fn?.kind === 'function') {
    // Functions are not first-class values.
    return unsupported(ref, ref.length - 1, fn);
  }
  if (head.type === 'var') {
    if (head.name === 'data') {
      const typed = env.getRoot('data');
      if (typed) {
        return checkLeaf(env, typed, ref, 1);
      }
      // Before any rule document has a type, OPA's tree has no `data` node: all is `any`.
      return env.data.children.size === 0
        ? checkLeaf(env, T_ANY, ref, 1)
        : checkData(env, env.data, ref, 1);
    }
    if (head.name === 'input') {
      return checkLeaf(env, env.getRoot('input') ?? T_ANY, ref, 1);
    }
    const t = env.getVar(head.name);
    return t ? checkLeaf(env, t, ref, 1) : checkLeaf(env, T_ANY, ref, 0);
  }
  // OPA binds a composite or call head to a local first; it has the head's type, unknown parts
  // made `any` as `=` gives them (E11).
  return checkLeaf(env, unknownAsAny(env.get(head)), ref, 1);
}

function checkData(
  env: TypeEnv,
  node: TypeNode,
  ref: Term[],
  idx: number,
): TypeErrorDetail | undefined {
  if (idx === ref.length) {
    return undefined;
  }
  const head = ref[idx];
  if (head.type === 'scalar') {
    if ((idx === 1 || idx === 2) && typeof head.value !== 'string') {
      return invalid(ref, idx, env.get(head), T_STRING, oneOfNode(node));
    }
  } else {
    // A var, or (after OPA's rewriteDynamicTerms) a local holding a nested ref, call or
    // composite: it must be able to be a key of what lies below.
    const tpe = keysOf(extent(node));
    const exist = head.type === 'var' ? env.getVar(head.name) : env.get(head);
    if (exist) {
      if (!unifies(tpe, exist)) {
        return invalid(ref, idx, exist, tpe, oneOfNode(node));
      }
    } else if (head.type === 'var') {
      env.putVar(head.name, tpe);
    }
  }
  const child = head.type === 'scalar' ? node.child(head.value) : undefined;
  if (!child) {
    // Base documents, or a key that enumerates: each child is checked, errors ignored (as OPA).
    node.children.forEach((c) => void checkData(env, c, ref, idx + 1));
    return undefined;
  }
  return child.isLeaf
    ? checkLeaf(env, child.value, ref, idx + 1)
    : checkData(env, child, ref, idx + 1);
}

function checkLeaf(
  env: TypeEnv,
  tpe: MaybeType,
  ref: Term[],
  idx: number,
): TypeErrorDetail | undefined {
  if (idx === ref.length) {
    return undefined;
  }
  const head = ref[idx];
  const keys = keysOf(tpe);
  if (!keys) {
    return unsupported(ref, idx - 1, tpe);
  }
  switch (head.type) {
    case 'var': {
      const exist = env.getVar(head.name);
      if (exist) {
        if (!unifies(exist, keys)) {
          return invalid(ref, idx, exist, keys, oneOfType(tpe));
        }
      } else {
        env.putVar(head.name, keys);
      }
      break;
    }
    case 'ref':
    case 'call':
    case 'arraycomp':
    case 'setcomp':
    case 'objectcomp': {
      const exist = env.get(head);
      if (exist && !unifies(exist, keys)) {
        return invalid(ref, idx, exist, keys, oneOfType(tpe));
      }
      break;
    }
    case 'array':
    case 'object':
    case 'set':
      if (!unify1(env, head, keys, false)) {
        return invalid(ref, idx, env.get(head), keys, []);
      }
      break;
    case 'scalar': {
      const child = select(tpe, head.value);
      if (!child) {
        return invalid(ref, idx, undefined, keys, oneOfType(tpe));
      }
      return checkLeaf(env, child, ref, idx + 1);
    }
  }
  return checkLeaf(env, valuesOf(tpe), ref, idx + 1);
}

function oneOfNode(node: TypeNode): Value[] {
  return [...node.children.values()].map((c) => c.key as Value).sort(compareValues);
}

function oneOfType(t: MaybeType): Value[] {
  const out: Value[] = [];
  const add = (x: MaybeType): void => {
    if (x?.kind === 'object') {
      out.push(...x.static.map((s) => s.key));
    } else if (x?.kind === 'any') {
      x.of.forEach(add);
    }
  };
  add(t);
  const seen = new Set<string>();
  return out
    .filter((v) => {
      const k = regoText(v);
      return seen.has(k) ? false : (seen.add(k), true);
    })
    .sort(compareValues);
}

function invalid(
  ref: Term[],
  pos: number,
  have: MaybeType,
  want: MaybeType,
  oneOf: Value[],
): TypeErrorDetail {
  const text = refText(ref);
  const pad = ' '.repeat(refText(ref.slice(0, pos)).length + 1);
  const lines = [text, pad + '^'];
  lines.push(have ? `${pad}have (type): ${typeText(have)}` : `${pad}have: ${termText(ref[pos])}`);
  lines.push(
    oneOf.length > 0
      ? `${pad}want (one of): [${oneOf.map(regoText).join(' ')}]`
      : `${pad}want (type): ${typeText(want)}`,
  );
  return {
    message: `undefined ref: ${text}\n\t${lines.join('\n\t')}`,
    location: ref[0].loc,
    nilCause: false,
  };
}

function unsupported(ref: Term[], pos: number, have: Type | undefined): TypeErrorDetail {
  const text = refText(ref);
  const lines = [
    text,
    '^'.repeat(refText(ref.slice(0, pos + 1)).length),
    `have: ${typeText(have)}`,
  ];
  return {
    message: `undefined ref: ${text}\n\t${lines.join('\n\t')}`,
    location: ref[0].loc,
    nilCause: false,
  };
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A reference as OPA prints it: `input.a[0]["b c"][x]`. */
export function refText(ref: Term[]): string {
  if (ref.length === 0) {
    return '';
  }
  let out = termText(ref[0]);
  for (const t of ref.slice(1)) {
    out +=
      t.type === 'scalar' && typeof t.value === 'string' && IDENT.test(t.value)
        ? '.' + t.value
        : '[' + termText(t) + ']';
  }
  return out;
}

/** A term in Rego syntax (enough for error messages). */
export function termText(t: Term): string {
  switch (t.type) {
    case 'scalar':
      return regoText(t.value);
    case 'var':
      return displayName(t.name);
    case 'ref':
      return refText(t.terms);
    case 'array':
      return '[' + t.items.map(termText).join(', ') + ']';
    case 'set':
      return t.items.length === 0 ? 'set()' : '{' + t.items.map(termText).join(', ') + '}';
    case 'object':
      return '{' + t.pairs.map(([k, v]) => `${termText(k)}: ${termText(v)}`).join(', ') + '}';
    case 'call':
      return `${refText(t.op.terms)}(${t.args.map(termText).join(', ')})`;
    case 'arraycomp':
      return `[${termText(t.term)} | …]`;
    case 'setcomp':
      return `{${termText(t.term)} | …}`;
    case 'objectcomp':
      return `{${termText(t.key)}: ${termText(t.value)} | …}`;
  }
}
