import { Expr, Import, Location, Module, RefTerm, Rule, RuleHead, Term } from '../ast/ast';
import { tokenize } from '../lexer/lexer';
import { compileError } from '../errors';
import { Cursor } from './cursor';
import { parseBody, parseExpr } from './exprs';
import { makeVar, parsePostfix, parseTerm } from './terms';

/** Parses one Rego module (v1 syntax; `rego.v1`, `rego.v2` and `future.keywords` imports are accepted). */
export function parseModule(src: string, file: string): Module {
  const c = new Cursor(tokenize(src, file), file);
  if (!c.isIdent('package')) {
    c.fail('package expected');
  }
  const pkgTok = c.next();
  const pkgRef = parsePostfix(c);
  const packagePath = refToPath(c, pkgRef);
  const mod: Module = { file, packagePath, packageLoc: c.loc(pkgTok), imports: [], rules: [] };
  while (c.isIdent('import') && !c.isOp('.', 1)) {
    const loc = c.loc();
    c.next();
    const path = parsePostfix(c);
    let alias: string | undefined;
    if (c.isIdent('as') && !c.peek().newlineBefore) {
      c.next();
      alias = c.expectIdent().text;
    }
    const ref: RefTerm = path.type === 'ref' ? path : { type: 'ref', terms: [path], loc: path.loc };
    checkImport(ref, loc);
    mod.imports.push({ path: ref, alias, loc } satisfies Import);
    c.notBodies ||= enablesNotBodies(ref);
  }
  while (c.peek().kind !== 'eof') {
    mod.rules.push(parseRule(c, mod));
    // A rule ends its line: `x := f(y) with f as g` is not a rule (`with` modifies body expressions).
    const next = c.peek();
    if (next.kind !== 'eof' && !next.newlineBefore) {
      c.fail(`unexpected ${next.text} token`);
    }
  }
  return mod;
}

/** `future.keywords`, `future.keywords.not` and `rego.v2` turn on OPA's `not { … }` bodies. */
function enablesNotBodies(ref: RefTerm): boolean {
  const text = ref.terms.map((t) => (t.type === 'var' ? t.name : String(importPart(t)))).join('.');
  return text === 'future.keywords' || text === 'future.keywords.not' || text === 'rego.v2';
}

function importPart(t: Term): unknown {
  return t.type === 'scalar' ? t.value : undefined;
}

/** OPA accepts imports of input, data, `future.keywords[.kw]`, `rego.v1` and `rego.v2`. */
function checkImport(ref: RefTerm, loc: Location): void {
  const parts = ref.terms.map((t, i) =>
    i === 0 && t.type === 'var'
      ? t.name
      : t.type === 'scalar' && typeof t.value === 'string'
        ? t.value
        : undefined,
  );
  const text = parts.map((p) => p ?? '?').join('.');
  const root = parts[0];
  if (root === 'future' || root === 'rego') {
    const ok =
      root === 'rego'
        ? text === 'rego.v1' || text === 'rego.v2'
        : parts[1] === 'keywords' && parts.length <= 3;
    if (!ok) {
      throw compileError('rego_parse_error', `invalid import ${text}`, loc);
    }
    return;
  }
  if (root !== 'input' && root !== 'data') {
    throw compileError(
      'rego_parse_error',
      `invalid path ${text}: path must begin with input or data`,
      loc,
    );
  }
  if (parts.some((p) => p === undefined)) {
    throw compileError(
      'rego_parse_error',
      `invalid path ${text}: path elements must be strings`,
      loc,
    );
  }
}

function refToPath(c: Cursor, t: Term): string[] {
  if (t.type === 'var') {
    return [t.name];
  }
  if (t.type !== 'ref' || t.terms[0].type !== 'var') {
    return c.fail('package name expected');
  }
  return [
    t.terms[0].name,
    ...t.terms
      .slice(1)
      .map((x) =>
        x.type === 'scalar' && typeof x.value === 'string'
          ? x.value
          : c.fail('package name expected'),
      ),
  ];
}

function parseRule(c: Cursor, mod: Module): Rule {
  const loc = c.loc();
  let isDefault = false;
  if (c.isIdent('default') && !c.isOp('.', 1)) {
    c.next();
    isDefault = true;
  }
  if (c.peek().kind !== 'ident') {
    c.fail(`unexpected ${c.peek().text || 'eof'} token`);
  }
  const headTerm = parsePostfix(c);
  const head: RuleHead = { ref: [], assign: false, loc };
  if (headTerm.type === 'var') {
    head.ref = [headTerm];
  } else if (headTerm.type === 'ref') {
    head.ref = headTerm.terms;
  } else if (headTerm.type === 'call') {
    head.ref = headTerm.op.terms;
    head.args = headTerm.args;
  } else {
    c.fail('rule head expected');
  }
  if (c.isIdent('contains') && !c.peek().newlineBefore) {
    c.next();
    head.key = parseTerm(c);
  } else if (c.isOp(':=') || c.isOp('=')) {
    head.assign = c.next().text === ':=';
    head.value = parseTerm(c);
  }
  const rule: Rule = { head, body: [], isDefault, loc, module: mod };
  if (isDefault) {
    if (!head.value) {
      c.fail('default rules must have a value');
    }
    return rule;
  }
  rule.body = parseRuleBody(c, loc);
  let tail = rule;
  while (c.isIdent('else') && !c.isOp('.', 1)) {
    const eloc = c.loc();
    c.next();
    const ehead: RuleHead = { ref: head.ref, args: head.args, assign: head.assign, loc: eloc };
    if (c.isOp(':=') || c.isOp('=')) {
      c.next();
      ehead.value = parseTerm(c);
    }
    const elseRule: Rule = {
      head: ehead,
      body: parseRuleBody(c, eloc),
      isDefault: false,
      loc: eloc,
      module: mod,
    };
    tail.elseRule = elseRule;
    tail = elseRule;
  }
  return rule;
}

function trueBody(loc: Location): Expr[] {
  return [
    { kind: 'term', term: { type: 'scalar', value: true, loc }, negated: false, withs: [], loc },
  ];
}

function parseRuleBody(c: Cursor, loc: Location): Expr[] {
  if (c.isIdent('if') && !c.isOp('.', 1)) {
    c.next();
    if (c.isOp('{')) {
      const save = c.pos;
      try {
        c.next();
        return parseBody(c, '}');
      } catch (bodyError) {
        // `if {…}` may also be a one-expression body that starts with an object or set literal.
        c.pos = save;
        try {
          return [parseExpr(c)];
        } catch {
          throw bodyError;
        }
      }
    }
    return [parseExpr(c)];
  }
  if (c.isOp('{') && !c.peek().newlineBefore) {
    // Rego v1: a body without `if` is v0 syntax, whose meaning differs (`p[x] { … }` was a set).
    throw compileError('rego_parse_error', '`if` keyword is required before rule body', c.loc());
  }
  return trueBody(loc);
}

export { makeVar };
