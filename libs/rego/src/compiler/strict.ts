import { Expr, Location, Module, Rule, Term } from '../ast/ast';
import { RegoErrorDetail } from '../errors';
import { walkBody, walkTerm } from './walk';

/**
 * OPA's strict mode (`opa check --strict`, `ast.CompileOpts{Strict: true}`) adds, in Rego v1, the
 * checks that are not on by default: unused local assignments (`assigned var x unused`), unused
 * `some` declarations (`declared var x unused`), unused function arguments and unused imports.
 */
export function checkStrict(modules: Module[], errors: RegoErrorDetail[]): void {
  for (const m of modules) {
    const moduleVars = new Map<string, number>();
    for (const r of m.rules) {
      checkRule(r, errors);
      countVars(ruleTerms(r), ruleBodies(r), moduleVars);
    }
    for (const imp of m.imports) {
      const names = imp.path.terms.map((t) =>
        t.type === 'var'
          ? t.name
          : t.type === 'scalar' && typeof t.value === 'string'
            ? t.value
            : '',
      );
      if (names[0] !== 'input' && names[0] !== 'data') {
        continue; // rego.v1, future.keywords…: no name to use
      }
      const name = imp.alias ?? names[names.length - 1];
      if (!moduleVars.has(name)) {
        const text = names.join('.') + (imp.alias ? ` as ${imp.alias}` : '');
        errors.push({
          code: 'rego_compile_error',
          message: `import ${text} unused`,
          location: imp.loc,
        });
      }
    }
  }
}

/** Head terms of a rule and its else branches. */
function ruleTerms(r: Rule): Term[] {
  const out: Term[] = [];
  for (let x: Rule | undefined = r; x; x = x.elseRule) {
    out.push(...x.head.ref, ...(x.head.args ?? []));
    if (x.head.value) {
      out.push(x.head.value);
    }
    if (x.head.key) {
      out.push(x.head.key);
    }
  }
  return out;
}

function ruleBodies(r: Rule): Expr[][] {
  const out: Expr[][] = [];
  for (let x: Rule | undefined = r; x; x = x.elseRule) {
    out.push(x.body);
  }
  return out;
}

/** Occurrences of each var name in terms and bodies (declarations by `some` excluded). */
function countVars(terms: Term[], bodies: Expr[][], into: Map<string, number>): void {
  const visit = (t: Term): void => {
    if (t.type === 'var') {
      into.set(t.name, (into.get(t.name) ?? 0) + 1);
    }
  };
  terms.forEach((t) => walkTerm(t, visit));
  for (const body of bodies) {
    walkBody(body, visit);
    visitEveryVars(body, visit);
  }
}

/** `every k, v in …` binds k and v; walkBody skips them. */
function visitEveryVars(body: Expr[], visit: (t: Term) => void): void {
  for (const e of body) {
    if (e.kind === 'every') {
      if (e.key) {
        visit(e.key);
      }
      visit(e.value);
      visitEveryVars(e.body, visit);
    }
  }
}

interface Declared {
  name: string;
  loc: Location;
  how: 'assigned' | 'declared';
}

/** Every `:=` and `some` declaration in a rule's bodies, nested ones included. */
function declarations(bodies: Expr[][]): Declared[] {
  const out: Declared[] = [];
  const visitBody = (body: Expr[]): void => {
    for (const e of body) {
      if (e.kind === 'assign') {
        walkTerm(e.left, (t) => {
          if (t.type === 'var') {
            out.push({ name: t.name, loc: t.loc, how: 'assigned' });
          }
        });
      } else if (e.kind === 'some') {
        e.vars.forEach((v) => out.push({ name: v.name, loc: v.loc, how: 'declared' }));
      } else if (e.kind === 'every') {
        visitBody(e.body);
      }
    }
    walkBody(body, (t) => {
      if (t.type === 'arraycomp' || t.type === 'setcomp' || t.type === 'objectcomp') {
        visitBody(t.body);
      }
    });
  };
  bodies.forEach(visitBody);
  return out;
}

function isWildcard(name: string): boolean {
  return name.startsWith('$');
}

function checkRule(r: Rule, errors: RegoErrorDetail[]): void {
  const counts = new Map<string, number>();
  const bodies = ruleBodies(r);
  countVars(ruleTerms(r), bodies, counts);
  for (const d of declarations(bodies)) {
    if (isWildcard(d.name)) {
      continue;
    }
    // An assigned var is named once where it is assigned; a `some` var is not counted at all.
    const uses = (counts.get(d.name) ?? 0) - (d.how === 'assigned' ? 1 : 0);
    if (uses <= 0) {
      errors.push({
        code: 'rego_compile_error',
        message: `${d.how} var ${d.name} unused`,
        location: d.loc,
      });
    }
  }
  const bodyCounts = new Map<string, number>();
  const headValues: Term[] = [];
  for (let x: Rule | undefined = r; x; x = x.elseRule) {
    if (x.head.value) {
      headValues.push(x.head.value);
    }
  }
  countVars(headValues, bodies, bodyCounts);
  for (const a of r.head.args ?? []) {
    if (a.type === 'var' && !isWildcard(a.name) && !bodyCounts.has(a.name)) {
      errors.push({
        code: 'rego_compile_error',
        message: `unused argument ${a.name}. (hint: use _ (wildcard variable) instead)`,
        location: a.loc,
      });
    }
  }
}
