import { Term } from '../ast/ast';
import { RegoObject, RegoSet, Value } from '../values/value';

/** Value of a term made only of literals, or undefined. */
export function constantValue(t: Term): Value | undefined {
  switch (t.type) {
    case 'scalar':
      return t.value;
    case 'array': {
      const out: Value[] = [];
      for (const x of t.items) {
        const v = constantValue(x);
        if (v === undefined) {
          return undefined;
        }
        out.push(v);
      }
      return out;
    }
    case 'set': {
      const s = new RegoSet();
      for (const x of t.items) {
        const v = constantValue(x);
        if (v === undefined) {
          return undefined;
        }
        s.add(v);
      }
      return s;
    }
    case 'object': {
      const o = new RegoObject();
      for (const [k, x] of t.pairs) {
        const kv = constantValue(k);
        const vv = constantValue(x);
        if (kv === undefined || vv === undefined) {
          return undefined;
        }
        o.set(kv, vv);
      }
      return o;
    }
    case 'arraycomp':
    case 'call':
    case 'objectcomp':
    case 'ref':
    case 'setcomp':
    case 'var':
    default:
      return undefined;
  }
}
