import { Expr, Term } from '../ast/ast';

/** Every var name in a term, including inside comprehensions. */
export function termVarsDeep(t: Term, out: Set<string>): Set<string> {
  switch (t.type) {
    case 'scalar':
      break;
    case 'var':
      out.add(t.name);
      break;
    case 'ref':
      for (const x of t.terms) {
        if (!(x.type === 'var' && (x.name === 'data' || x.name === 'input') && x === t.terms[0])) {
          termVarsDeep(x, out);
        }
      }
      break;
    case 'array':
    case 'set':
      t.items.forEach((x) => termVarsDeep(x, out));
      break;
    case 'object':
      t.pairs.forEach(([k, v]) => {
        termVarsDeep(k, out);
        termVarsDeep(v, out);
      });
      break;
    case 'call':
      t.args.forEach((x) => termVarsDeep(x, out));
      break;
    case 'arraycomp':
    case 'setcomp':
      termVarsDeep(t.term, out);
      t.body.forEach((e) => exprVarsDeep(e, out));
      break;
    case 'objectcomp':
      termVarsDeep(t.key, out);
      termVarsDeep(t.value, out);
      t.body.forEach((e) => exprVarsDeep(e, out));
      break;
  }
  return out;
}

export function exprVarsDeep(e: Expr, out: Set<string>): Set<string> {
  switch (e.kind) {
    case 'term':
      termVarsDeep(e.term, out);
      break;
    case 'unify':
    case 'assign':
      termVarsDeep(e.left, out);
      termVarsDeep(e.right, out);
      break;
    case 'some':
      e.vars.forEach((v) => out.add(v.name));
      break;
    case 'somein':
      if (e.key) {
        termVarsDeep(e.key, out);
      }
      termVarsDeep(e.value, out);
      termVarsDeep(e.domain, out);
      break;
    case 'every':
      if (e.key) {
        out.add(e.key.name);
      }
      out.add(e.value.name);
      termVarsDeep(e.domain, out);
      e.body.forEach((x) => exprVarsDeep(x, out));
      break;
  }
  for (const w of e.withs) {
    termVarsDeep(w.value, out);
  }
  return out;
}

/** Vars of a term at this level only (comprehension bodies excluded). */
export function termVarsShallow(t: Term, out: Set<string>): Set<string> {
  switch (t.type) {
    case 'var':
      out.add(t.name);
      break;
    case 'ref':
      t.terms.forEach((x, i) => {
        if (!(i === 0 && x.type === 'var' && (x.name === 'data' || x.name === 'input'))) {
          termVarsShallow(x, out);
        }
      });
      break;
    case 'array':
    case 'set':
      t.items.forEach((x) => termVarsShallow(x, out));
      break;
    case 'object':
      t.pairs.forEach(([k, v]) => {
        termVarsShallow(k, out);
        termVarsShallow(v, out);
      });
      break;
    case 'call':
      t.args.forEach((x) => termVarsShallow(x, out));
      break;
    case 'arraycomp':
    case 'objectcomp':
    case 'scalar':
    case 'setcomp':
    default:
      break;
  }
  return out;
}

export function exprVarsShallow(e: Expr, out: Set<string>): Set<string> {
  switch (e.kind) {
    case 'term':
      termVarsShallow(e.term, out);
      break;
    case 'unify':
    case 'assign':
      termVarsShallow(e.left, out);
      termVarsShallow(e.right, out);
      break;
    case 'some':
      e.vars.forEach((v) => out.add(v.name));
      break;
    case 'somein':
      if (e.key) {
        termVarsShallow(e.key, out);
      }
      termVarsShallow(e.value, out);
      termVarsShallow(e.domain, out);
      break;
    case 'every':
      termVarsShallow(e.domain, out);
      break;
  }
  for (const w of e.withs) {
    termVarsShallow(w.value, out);
  }
  return out;
}

/** Vars a unification can bind directly (bare vars and vars inside array/object literals). */
export function patternVars(t: Term, out: Set<string>): Set<string> {
  if (t.type === 'var') {
    out.add(t.name);
  } else if (t.type === 'array') {
    t.items.forEach((x) => patternVars(x, out));
  } else if (t.type === 'object') {
    t.pairs.forEach(([, v]) => patternVars(v, out));
  }
  return out;
}

/** Display name of a (possibly renamed) var. */
export function displayName(name: string): string {
  return name.startsWith('$_') ? '_' : name.replace(/\$\d+$/, '');
}
