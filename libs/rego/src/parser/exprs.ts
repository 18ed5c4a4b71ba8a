import { Expr, ExprBody, RefTerm, Term, VarTerm, WithModifier } from '../ast/ast';
import { Cursor } from './cursor';
import { templateTerm } from './template';
import { parseMember3, parsePostfix, parseTerm, setBodyParser } from './terms';

/** Parses expressions separated by `;` or newlines up to (and consuming) `end` ('' = EOF). */
export function parseBody(c: Cursor, end: string): Expr[] {
  const body: Expr[] = [];
  const atEnd = (): boolean => (end === '' ? c.peek().kind === 'eof' : c.isOp(end));
  while (!atEnd()) {
    body.push(parseExpr(c));
    if (c.isOp(';')) {
      c.next();
      continue;
    }
    if (atEnd()) {
      break;
    }
    if (!c.peek().newlineBefore) {
      c.fail(`unexpected ${c.peek().kind === 'eof' ? 'eof' : c.peek().text} token`);
    }
  }
  if (end !== '') {
    c.expectOp(end);
  }
  return body;
}

setBodyParser(parseBody, (parts, file, loc) => templateTerm(parts, file, loc, parseExpr));

/** One body expression with its `not` and `with` parts. */
export function parseExpr(c: Cursor): Expr {
  const loc = c.loc();
  let negated = false;
  if (c.isIdent('not') && !c.isOp('.', 1)) {
    c.next();
    negated = true;
  }
  const body = negated && c.notBodies && c.isOp('{') ? parseNotBody(c) : parseExprBody(c);
  const withs: WithModifier[] = [];
  while (c.isIdent('with') && !c.isOp('.', 1)) {
    const wloc = c.loc();
    c.next();
    const target = parsePostfix(c);
    if (!c.isIdent('as')) {
      c.fail('expected as');
    }
    c.next();
    const value = parseTerm(c);
    const ref: RefTerm =
      target.type === 'ref' ? target : { type: 'ref', terms: [target], loc: target.loc };
    withs.push({ target: ref, value, loc: wloc });
  }
  return { ...body, negated, withs, loc };
}

/** The body of `not { … }` (E12). */
function parseNotBody(c: Cursor): ExprBody {
  const loc = c.loc();
  c.next();
  const body = parseBody(c, '}');
  const term: Term = {
    type: 'ref',
    terms: [
      { type: 'arraycomp', term: { type: 'scalar', value: true, loc }, body, loc },
      { type: 'scalar', value: 0, loc },
    ],
    loc,
  };
  return { kind: 'term', term };
}

function parseExprBody(c: Cursor): ExprBody {
  if (
    c.isIdent('some') &&
    !c.isOp('.', 1) &&
    !c.isOp('=', 1) &&
    !c.isOp(':=', 1) &&
    c.peek(1).kind !== 'eof'
  ) {
    c.next();
    return parseSome(c);
  }
  if (c.isIdent('every') && c.peek(1).kind === 'ident' && !c.isOp('.', 1)) {
    c.next();
    return parseEvery(c);
  }
  const left = parseTerm(c);
  if (c.isOp(',')) {
    // `k, v in xs` as a membership expression
    c.next();
    return { kind: 'term', term: parseMember3(c, left) };
  }
  if (c.isOp('=')) {
    c.next();
    return { kind: 'unify', left, right: parseTerm(c) };
  }
  if (c.isOp(':=')) {
    c.next();
    return { kind: 'assign', left, right: parseTerm(c) };
  }
  return { kind: 'term', term: left };
}

function parseSome(c: Cursor): ExprBody {
  const first = parseTerm(c, { noIn: true });
  let second: Term | undefined;
  const vars: Term[] = [first];
  while (c.isOp(',')) {
    c.next();
    second = parseTerm(c, { noIn: true });
    vars.push(second);
  }
  if (c.isIdent('in')) {
    c.next();
    const domain = parseTerm(c);
    if (vars.length > 2) {
      c.fail('unexpected , token');
    }
    return vars.length === 2
      ? { kind: 'somein', key: first, value: vars[1], domain }
      : { kind: 'somein', value: first, domain };
  }
  for (const v of vars) {
    if (v.type !== 'var') {
      c.fail('expected var in some declaration');
    }
  }
  return { kind: 'some', vars: vars as VarTerm[] };
}

function parseEvery(c: Cursor): ExprBody {
  const first = parseTerm(c, { noIn: true });
  let key: Term | undefined;
  let value = first;
  if (c.isOp(',')) {
    c.next();
    key = first;
    value = parseTerm(c, { noIn: true });
  }
  if (!c.isIdent('in')) {
    c.fail('expected in');
  }
  c.next();
  const domain = parseTerm(c);
  c.expectOp('{');
  const body = parseBody(c, '}');
  if (value.type !== 'var' || (key && key.type !== 'var')) {
    c.fail('expected var in every');
  }
  return { kind: 'every', key, value, domain, body };
}
