import { Expr, Location, Term } from '../ast/ast';
import { compileError } from '../errors';
import { tokenize } from '../lexer/lexer';
import { TemplatePart } from '../lexer/token';
import { Cursor } from './cursor';
import { makeVar, opRef } from './terms';

let generated = 0;

/** `$"a {expr} b"` becomes `internal.template_string(["a ", {$t | $t = expr}, " b"])`. */
export function templateTerm(
  parts: TemplatePart[],
  file: string,
  loc: Location,
  parseExpr: (c: Cursor) => Expr,
): Term {
  const items: Term[] = parts.map((p) => {
    if ('text' in p) {
      return { type: 'scalar', value: p.text, loc };
    }
    const toks = tokenize(p.src, file).map((t) => ({
      ...t,
      col: t.row === 1 ? t.col + p.col - 1 : t.col,
      row: t.row + p.row - 1,
    }));
    const c = new Cursor(toks, file);
    const e = parseExpr(c);
    if (c.peek().kind !== 'eof') {
      c.fail('expected } to end template string expression');
    }
    if (e.kind !== 'term' || e.negated) {
      throw compileError(
        'rego_parse_error',
        'unexpected expression in template-string expression',
        e.loc,
      );
    }
    const v = makeVar(`$t${++generated}`, e.loc);
    const body: Expr[] = [
      // `{a with input as {…}}`: the modifiers apply to the expression, as in OPA.
      { kind: 'unify', left: v, right: e.term, negated: false, withs: e.withs, loc: e.loc },
    ];
    return { type: 'setcomp', term: v, body, loc: e.loc };
  });
  return {
    type: 'call',
    op: opRef('internal.template_string', loc),
    args: [{ type: 'array', items, loc }],
    loc,
  };
}
