import { CallTarget, CallTerm, Term, WithModifier } from '../../ast/ast';
import { TypeEnv } from './env';
import { builtinDecl } from './notation';
import { refText, TypeErrorDetail } from './refs';
import { FunctionType, MaybeType, T_ANY } from './types';
import { isNil } from './type-select';
import { argsText, typeText } from './type-text';
import { unifies, unify1 } from './unify';

// Calls as OPA's checker sees them: the arguments of a built-in or user function call against its
// declaration, and a `with` that replaces one function by another.

/**
 * OPA's `checkExprWith`: a function replaced by a function must be replaced by one that takes the
 * same number of arguments of types that can meet.
 */
export function checkWith(env: TypeEnv, w: WithModifier): TypeErrorDetail | undefined {
  const target = w.resolved?.target;
  const mock = w.resolved?.mock;
  if (!target || !mock) {
    return undefined;
  }
  const want = targetType(env, target);
  const have = targetType(env, mock);
  if (!want || !have || unifies(want, have)) {
    return undefined;
  }
  const name = target.kind === 'builtin' ? target.name : ['data', ...target.path].join('.');
  return {
    message: `${name}: arity mismatch\n\thave: ${argsText({ ...have, names: undefined })}\n\twant: ${argsText(want)}`,
    location: w.loc,
    nilCause: false,
  };
}

/** The declared type of a built-in or the inferred type of a user function. */
function targetType(env: TypeEnv, target: CallTarget): FunctionType | undefined {
  if (target.kind === 'builtin') {
    return builtinDecl(target.name);
  }
  const loc = { file: '', row: 0, col: 0 };
  const t = env.getRef([
    { type: 'var', name: 'data', loc, slot: -1 },
    ...target.path.map((p): Term => ({ type: 'scalar', value: p, loc })),
  ]);
  return t?.kind === 'function' ? t : undefined;
}

/** OPA's `checkExprBuiltin` for a built-in or user function call. */
export function checkCall(
  env: TypeEnv,
  call: CallTerm,
  output: boolean,
  callTypes: Map<CallTerm, MaybeType>,
): TypeErrorDetail | undefined {
  const target = call.target;
  let decl: FunctionType | undefined;
  let name: string;
  if (target?.kind === 'builtin') {
    decl = builtinDecl(target.name);
    name = target.name;
  } else if (target?.kind === 'function') {
    const t = env.getRef([
      { type: 'var', name: 'data', loc: call.loc, slot: -1 },
      ...pathTerms(target.path, call),
    ]);
    decl = t?.kind === 'function' ? t : undefined;
    name = ['data', ...target.path].join('.');
  } else {
    name = refText(call.op.terms);
  }
  if (!decl) {
    // No declaration (or a function whose rules had errors): the result is unknown.
    callTypes.set(call, T_ANY);
    return undefined;
  }
  const args: (Term | undefined)[] = output ? [...call.args, undefined] : call.args;
  const formal: MaybeType[] = decl.result ? [...decl.args, decl.result] : decl.args;
  const have = (): MaybeType[] => args.map((a) => (a ? env.get(a) : undefined));
  const fail = (msg: string): TypeErrorDetail => {
    const types = have();
    return {
      message: `${name}: ${msg}\n\thave: (${types.map(typeText).join(', ')})\n\twant: ${argsText(decl, true)}`,
      location: call.loc,
      nilCause: types.some(isNil),
    };
  };
  if (args.length > formal.length || args.length < decl.args.length) {
    // Reported before type checking, as OPA's "arity mismatch" (see checks.ts).
    callTypes.set(call, T_ANY);
    return undefined;
  }
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const want = i < formal.length ? formal[i] : decl.variadic;
    if (a && !unify1(env, a, want, false)) {
      return fail('invalid argument(s)');
    }
  }
  callTypes.set(call, decl.result);
  return undefined;
}

function pathTerms(path: string[], call: CallTerm): Term[] {
  return path.map((p) => ({ type: 'scalar', value: p, loc: call.loc }));
}
