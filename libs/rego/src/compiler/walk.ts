import { Expr, Term } from '../ast/ast';
import { CompiledRule } from './types';

/** Visits every term (depth first) of a body. */
export function walkBody(body: Expr[], visit: (t: Term) => void): void {
  for (const e of body) {
    switch (e.kind) {
      case 'term':
        walkTerm(e.term, visit);
        break;
      case 'unify':
      case 'assign':
        walkTerm(e.left, visit);
        walkTerm(e.right, visit);
        break;
      case 'some':
        break;
      case 'somein':
        if (e.key) {
          walkTerm(e.key, visit);
        }
        walkTerm(e.value, visit);
        walkTerm(e.domain, visit);
        break;
      case 'every':
        walkTerm(e.domain, visit);
        walkBody(e.body, visit);
        break;
    }
    e.withs.forEach((w) => walkTerm(w.value, visit));
  }
}

export function walkTerm(t: Term, visit: (t: Term) => void): void {
  walkTermOutsideClosures(t, visit, (closure) => {
    if (closure.type === 'objectcomp') {
      walkTerm(closure.key, visit);
      walkTerm(closure.value, visit);
    } else {
      walkTerm(closure.term, visit);
    }
    walkBody(closure.body, visit);
  });
}

type ClosureTerm = Extract<Term, { type: 'arraycomp' | 'setcomp' | 'objectcomp' }>;

/** Visits a term and its parts, pre-order, without entering comprehensions. */
export function walkTermOutsideClosures(
  t: Term,
  visit: (t: Term) => void,
  intoClosure: (closure: ClosureTerm) => void = () => undefined,
): void {
  const walk = (x: Term) => walkTermOutsideClosures(x, visit, intoClosure);
  visit(t);
  switch (t.type) {
    case 'ref':
      t.terms.forEach(walk);
      break;
    case 'array':
    case 'set':
      t.items.forEach(walk);
      break;
    case 'object':
      t.pairs.forEach(([k, v]) => {
        walk(k);
        walk(v);
      });
      break;
    case 'call':
      t.args.forEach(walk);
      break;
    case 'arraycomp':
    case 'setcomp':
    case 'objectcomp':
      intoClosure(t);
      break;
    case 'scalar':
    case 'var':
    default:
      break;
  }
}

/** Visits every term of a rule: head, arguments, body and else branches. */
export function walkRule(r: CompiledRule, visit: (t: Term) => void): void {
  [...r.tail, ...(r.args ?? []), ...(r.value ? [r.value] : []), ...(r.key ? [r.key] : [])].forEach(
    (t) => walkTerm(t, visit),
  );
  walkBody(r.body, visit);
  if (r.elseRule) {
    walkRule(r.elseRule, visit);
  }
}
