import { ArrayCompTerm, CallTerm, ObjectCompTerm, SetCompTerm } from '../ast/ast';
import { RegoEvalError } from '../errors';
import { regoText } from '../values/json';
import { RegoObject, RegoSet, Value, valuesEqual } from '../values/value';
import type { Evaluator } from './evaluator';
import { Frame, K, VK } from './state';

/** Array, set and object comprehensions: collect every solution of the body. */
export function comprehension(
  ev: Evaluator,
  t: ArrayCompTerm | SetCompTerm | ObjectCompTerm,
  f: Frame,
  vk: VK,
): boolean {
  switch (t.type) {
    case 'arraycomp': {
      const out: Value[] = [];
      ev.body(t.body, 0, f, () => ev.term(t.term, f, (v) => (out.push(v), false)));
      return vk(out);
    }
    case 'setcomp': {
      const out = new RegoSet();
      ev.body(t.body, 0, f, () => ev.term(t.term, f, (v) => (out.add(v), false)));
      return vk(out);
    }
    case 'objectcomp': {
      const out = new RegoObject();
      ev.body(t.body, 0, f, () =>
        ev.term(t.key, f, (key) =>
          ev.term(t.value, f, (v) => {
            const prev = out.get(key);
            if (prev !== undefined && !valuesEqual(prev, v)) {
              throw new RegoEvalError('eval_conflict_error', 'object keys must be unique', t.loc);
            }
            out.set(key, v);
            return false;
          }),
        ),
      );
      return vk(out);
    }
  }
}

/** `print` never fails: each operand prints all its values (cross product), or `<undefined>`. */
export function printCall(ev: Evaluator, t: CallTerm, f: Frame, k: K): boolean {
  const operands = t.args.map((a) => {
    const vs: string[] = [];
    ev.term(a, f, (v) => (vs.push(typeof v === 'string' ? v : regoText(v)), false));
    return vs.length > 0 ? vs : ['<undefined>'];
  });
  let lines: string[] = [''];
  operands.forEach((vs, i) => {
    lines = lines.flatMap((l) => vs.map((v) => (i === 0 ? v : `${l} ${v}`)));
  });
  lines.forEach((l) => ev.print(l));
  return k();
}
