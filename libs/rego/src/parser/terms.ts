import { Expr, Location, RefTerm, Term, VarTerm } from '../ast/ast';
import { AnyNum, numberFromText } from '../values/decimal';
import { normalizeBig } from '../values/json';
import { TemplatePart } from '../lexer/token';
import { Cursor } from './cursor';

/** Hook so that term parsing can parse comprehension bodies without a cyclic import. */
export interface BodyParser {
  (c: Cursor, end: string): Expr[];
}

let parseBodyHook: BodyParser = () => [];
let templateHook: (parts: TemplatePart[], file: string, loc: Location) => Term = () => ({
  type: 'scalar',
  value: '',
  loc: { file: '', row: 0, col: 0 },
});

export function setBodyParser(p: BodyParser, t: typeof templateHook): void {
  parseBodyHook = p;
  templateHook = t;
}

export interface TermOptions {
  noIn?: boolean;
  noPipe?: boolean;
}

const RELATIONS: Record<string, string> = {
  '==': 'equal',
  '!=': 'neq',
  '<': 'lt',
  '<=': 'lte',
  '>': 'gt',
  '>=': 'gte',
};
const ARITH: Record<string, string> = { '+': 'plus', '-': 'minus' };
const FACTOR: Record<string, string> = { '*': 'mul', '/': 'div', '%': 'rem' };

export function makeVar(name: string, loc: Location): VarTerm {
  return { type: 'var', name, loc, slot: -1 };
}

/** Operator ref for a built-in, e.g. `internal.member_2`. */
export function opRef(name: string, loc: Location): RefTerm {
  const [head, ...rest] = name.split('.');
  return {
    type: 'ref',
    terms: [makeVar(head, loc), ...rest.map((r) => ({ type: 'scalar' as const, value: r, loc }))],
    loc,
  };
}

function call(name: string, args: Term[], loc: Location): Term {
  return { type: 'call', op: opRef(name, loc), args, loc };
}

/** Full term including infix operators (`in` is the loosest). */
export function parseTerm(c: Cursor, opts: TermOptions = {}): Term {
  return inLoop(c, parseRelation(c, opts), opts);
}

function inLoop(c: Cursor, first: Term, opts: TermOptions): Term {
  let left = first;
  while (!opts.noIn && c.isIdent('in') && !c.peek().newlineBefore) {
    c.next();
    const right = parseRelation(c, opts);
    left = call('internal.member_2', [left, right], left.loc);
  }
  return left;
}

function binary(c: Cursor, ops: Record<string, string>, sub: () => Term): Term {
  let left = sub();
  for (;;) {
    const t = c.peek();
    if (t.kind !== 'op' || !(t.text in ops) || t.newlineBefore) {
      return left;
    }
    c.next();
    left = call(ops[t.text], [left, sub()], left.loc);
  }
}

function parseRelation(c: Cursor, opts: TermOptions): Term {
  return binary(c, RELATIONS, () => parseOr(c, opts));
}

function parseOr(c: Cursor, opts: TermOptions): Term {
  return binary(c, opts.noPipe ? {} : { '|': 'or' }, () => parseAnd(c, opts));
}

function parseAnd(c: Cursor, _opts: TermOptions): Term {
  return binary(c, { '&': 'and' }, () => parseArith(c));
}

function parseArith(c: Cursor): Term {
  return binary(c, ARITH, () => parseFactor(c));
}

function parseFactor(c: Cursor): Term {
  return binary(c, FACTOR, () => parsePostfix(c));
}

/** A primary term followed by adjacent `.name`, `[term]` and `(args)`. */
export function parsePostfix(c: Cursor): Term {
  let t = parsePrimary(c);
  for (;;) {
    if (!c.adjacent()) {
      return t;
    }
    if (c.isOp('.') && c.peek(1).kind === 'ident' && !c.peek(1).spaceBefore) {
      c.next();
      const name = c.next();
      t = extendRef(t, { type: 'scalar', value: name.text, loc: c.loc(name) });
    } else if (
      c.isOp('.') &&
      c.peek(1).kind !== 'ident' &&
      (c.peek(1).kind === 'eof' || !c.peek(1).spaceBefore)
    ) {
      // OPA's parseRef: a dot must be followed by a name.
      const after = c.peek(1);
      c.next();
      c.fail(`unexpected ${after.kind === 'eof' ? 'eof' : after.text} token: expected ident`);
    } else if (c.isOp('[')) {
      c.next();
      const idx = parseTerm(c);
      c.expectOp(']');
      t = extendRef(t, idx);
    } else if (c.isOp('(') && (t.type === 'var' || (t.type === 'ref' && isNameRef(t)))) {
      c.next();
      const args = parseList(c, ')');
      t = {
        type: 'call',
        op: t.type === 'ref' ? t : { type: 'ref', terms: [t], loc: t.loc },
        args,
        loc: t.loc,
      };
    } else {
      return t;
    }
  }
}

function isNameRef(t: RefTerm): boolean {
  return (
    t.terms[0].type === 'var' &&
    t.terms.slice(1).every((x) => x.type === 'scalar' && typeof x.value === 'string')
  );
}

function extendRef(t: Term, elem: Term): RefTerm {
  if (t.type === 'ref') {
    return { type: 'ref', terms: [...t.terms, elem], loc: t.loc };
  }
  return { type: 'ref', terms: [t, elem], loc: t.loc };
}

function parseList(c: Cursor, end: string): Term[] {
  const items: Term[] = [];
  while (!c.isOp(end)) {
    items.push(parseTerm(c));
    if (!c.isOp(',')) {
      break;
    }
    c.next();
  }
  c.expectOp(end);
  return items;
}

/** OPA keeps the literal's decimal text, so a literal denotes its exact value (E5). */
function parseNumber(text: string): AnyNum {
  return numberFromText(text);
}

function negate(n: AnyNum): AnyNum {
  return typeof n === 'bigint' ? normalizeBig(-n) : typeof n === 'number' ? -n : n.negate();
}

function parsePrimary(c: Cursor): Term {
  const t = c.peek();
  const loc = c.loc(t);
  if (t.kind === 'number') {
    if (/^0\d/.test(t.text)) {
      c.fail('expected number without leading zero', t);
    }
    c.next();
    return { type: 'scalar', value: parseNumber(t.text), loc };
  }
  if (t.kind === 'string') {
    c.next();
    return { type: 'scalar', value: t.text, loc };
  }
  if (t.kind === 'template') {
    c.next();
    return templateHook(t.parts ?? [], c.file, loc);
  }
  if (t.kind === 'op' && t.text === '-' && c.peek(1).kind === 'number') {
    c.next();
    return { type: 'scalar', value: negate(parseNumber(c.next().text)), loc };
  }
  if (t.kind === 'op' && t.text === '-' && c.peek(1).kind === 'ident') {
    // Unary minus on a reference: -ref is minus(0, ref), as in OPA.
    c.next();
    const operand = parsePostfix(c);
    return call('minus', [{ type: 'scalar', value: 0, loc }, operand], loc);
  }
  if (t.kind === 'ident') {
    c.next();
    const dotted = c.isOp('.') && c.adjacent();
    switch (dotted ? '' : t.text) {
      case 'true':
        return { type: 'scalar', value: true, loc };
      case 'false':
        return { type: 'scalar', value: false, loc };
      case 'null':
        return { type: 'scalar', value: null, loc };
      case 'set':
        if (c.isOp('(') && c.isOp(')', 1) && c.adjacent()) {
          c.next();
          c.next();
          return { type: 'set', items: [], loc };
        }
        break;
      default:
        break;
    }
    return makeVar(t.text === '_' ? c.wildcard() : t.text, loc);
  }
  if (t.kind === 'op') {
    switch (t.text) {
      case '(': {
        c.next();
        let inner = parseTerm(c);
        if (c.isOp(',')) {
          c.next();
          inner = parseMember3(c, inner);
        }
        c.expectOp(')');
        return inner;
      }
      case '[':
        c.next();
        return parseArray(c, loc);
      case '{':
        c.next();
        return parseBrace(c, loc);
      default:
        break;
    }
  }
  return c.fail(`unexpected ${t.kind === 'eof' ? 'eof' : t.text} token`);
}

function parseArray(c: Cursor, loc: Location): Term {
  if (c.isOp(']')) {
    c.next();
    return { type: 'array', items: [], loc };
  }
  const first = parseTerm(c, { noPipe: true });
  if (c.isOp('|')) {
    c.next();
    const body = parseBodyHook(c, ']');
    return { type: 'arraycomp', term: first, body, loc };
  }
  const items = [first];
  if (c.isOp(',')) {
    c.next();
    items.push(...parseList(c, ']'));
  } else {
    c.expectOp(']');
  }
  return { type: 'array', items, loc };
}

function parseBrace(c: Cursor, loc: Location): Term {
  if (c.isOp('}')) {
    c.next();
    return { type: 'object', pairs: [], loc };
  }
  const first = parseTerm(c, { noPipe: true });
  if (c.isOp(':')) {
    c.next();
    const value = parseTerm(c, { noPipe: true });
    if (c.isOp('|')) {
      c.next();
      const body = parseBodyHook(c, '}');
      return { type: 'objectcomp', key: first, value, body, loc };
    }
    const pairs: [Term, Term][] = [[first, value]];
    while (c.isOp(',')) {
      c.next();
      if (c.isOp('}')) {
        break;
      }
      const k = parseTerm(c);
      c.expectOp(':');
      pairs.push([k, parseTerm(c)]);
    }
    c.expectOp('}');
    return { type: 'object', pairs, loc };
  }
  if (c.isOp('|')) {
    c.next();
    const body = parseBodyHook(c, '}');
    return { type: 'setcomp', term: first, body, loc };
  }
  const items = [first];
  if (c.isOp(',')) {
    c.next();
    items.push(...parseList(c, '}'));
  } else {
    c.expectOp('}');
  }
  return { type: 'set', items, loc };
}

/** After `key ,`: parses `value in domain [in …]` into `internal.member_3`. */
export function parseMember3(c: Cursor, key: Term): Term {
  const value = parseTerm(c, { noIn: true });
  if (!c.isIdent('in')) {
    c.fail('expected in');
  }
  c.next();
  const domain = parseRelation(c, {});
  return inLoop(c, call('internal.member_3', [key, value, domain], key.loc), {});
}
