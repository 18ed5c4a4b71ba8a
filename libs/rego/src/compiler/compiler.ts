import { Module, Rule, Term } from '../ast/ast';
import { BuiltinDef } from '../builtins/types';
import { RegoCompileError, RegoErrorDetail } from '../errors';
import { parseModule } from '../parser/module';
import { Annotations, rewriteMetadataCalls } from './annotations';
import { checkRecursion, checkTree, checkUnsupported } from './checks';
import { checkStrict } from './strict';
import { constantValue } from './constant';
import { indexTree } from './rule-index';
import { ResolveEnv, Resolver } from './resolve';
import { Safety } from './safety';
import { SlotMap } from './slots';
import { SchemaError, schemaType } from './typecheck/schema';
import { SchemaContext, schemaSetOf } from './typecheck/schema-env';
import { CompiledRule, DocNode } from './types';
import { exprVarsShallow, termVarsDeep } from './vars';

export interface ModuleSource {
  file: string;
  source: string;
}

/** Everything evaluation needs, built once. */
export interface Program {
  root: DocNode;
  functions: Map<string, CompiledRule[]>;
  builtins: Map<string, BuiltinDef>;
  /** Function paths (joined) with arity, for query compilation. */
  functionArity: Map<string, number>;
  /** Package path of each module, in the order given. */
  packages: string[][];
  /** JSON schemas for the type checker (`schemas` annotations, the caller's schema set). */
  schemas?: SchemaContext;
}

/** Options of `compileProgram`. */
export interface CompileOptions {
  /** OPA's strict mode. */
  strict?: boolean;
  /** JSON schemas by reference (OPA's `--schema`). */
  schemas?: Record<string, unknown>;
}

/** Parses and compiles modules together; throws `RegoCompileError` listing every problem. */
export function compileProgram(
  sources: ModuleSource[],
  builtins: Map<string, BuiltinDef>,
  options: CompileOptions = {},
): Program {
  const errors: RegoErrorDetail[] = [];
  const modules: Module[] = [];
  for (const s of sources) {
    try {
      modules.push(parseModule(s.source, s.file));
    } catch (e) {
      if (e instanceof RegoCompileError) {
        errors.push(...e.errors);
      } else {
        throw e;
      }
    }
  }
  if (errors.length > 0) {
    throw new RegoCompileError(errors);
  }
  if (options.strict) {
    checkStrict(modules, errors);
  }
  const roots = new Map<string, Set<string>>();
  const functionArity = new Map<string, number>();
  for (const m of modules) {
    const key = m.packagePath.join('.');
    const set = roots.get(key) ?? new Set<string>();
    roots.set(key, set);
    for (const r of m.rules) {
      const name = (r.head.ref[0] as { name: string }).name;
      set.add(name);
      if (name === 'input' || name === 'data') {
        errors.push({
          code: 'rego_compile_error',
          message: `rules must not shadow ${name} (use a different rule name)`,
          location: r.loc,
        });
      }
      if (r.head.args) {
        functionArity.set([...m.packagePath, ...groundPrefix(r)].join('.'), r.head.args.length);
      }
    }
  }
  const root = new DocNode([]);
  for (const m of modules) {
    let n = root;
    n.hasRules = true;
    for (const p of m.packagePath) {
      n = n.child(p);
      n.hasRules = true;
    }
  }
  const functions = new Map<string, CompiledRule[]>();
  const arityOf = (
    t: { kind: 'builtin'; name: string } | { kind: 'function'; path: string[] },
  ): number | undefined =>
    t.kind === 'builtin' ? builtins.get(t.name)?.arity : functionArity.get(t.path.join('.'));
  const safety = new Safety(arityOf, errors);
  const errorsBefore = errors.length;
  const annotations = new Annotations(
    modules.map((module, i) => ({ module, source: sources[i].source })),
    (r) => [...r.module.packagePath, ...groundPrefix(r)],
    errors,
  );
  // OPA stops before type checking when the annotation set does not build: no schema applies.
  const useSchemas = !annotations.empty && errors.length === errorsBefore;
  const schemas = schemaContext(options.schemas, errors);
  const compiled: CompiledRule[] = [];
  for (const m of modules) {
    const env: ResolveEnv = {
      pkgPath: m.packagePath,
      ruleRoots: roots.get(m.packagePath.join('.')) ?? new Set(),
      imports: importsOf(m, errors),
      functions: functionArity,
      builtins,
      errors,
    };
    const resolver = new Resolver(env);
    for (const r of m.rules) {
      const cr = compileRule(r, m, resolver, safety);
      rewriteMetadataCalls(cr, r, annotations, m.packagePath);
      if (useSchemas) {
        const path = [...m.packagePath, ...groundPrefix(r)];
        for (let x: CompiledRule | undefined = cr; x; x = x.elseRule) {
          schemas.byRule.set(x, annotations.schemasFor(r, path, m.packagePath, x === cr));
        }
      }
      compiled.push(cr);
      insert(root, functions, cr);
    }
  }
  indexTree(root);
  checkTree(root, errors);
  checkRecursion(root, compiled, errors);
  checkUnsupported(compiled, builtins, errors, undefined, root, schemas);
  if (errors.length > 0) {
    throw new RegoCompileError(dedupe(errors));
  }
  return {
    root,
    functions,
    builtins,
    functionArity,
    packages: modules.map((m) => m.packagePath),
    schemas,
  };
}

/** The schema set and the type of `input` from its root schema (OPA's `Compiler.init`). */
function schemaContext(
  given: Record<string, unknown> | undefined,
  errors: RegoErrorDetail[],
): SchemaContext {
  const ctx: SchemaContext = { byRule: new Map() };
  if (!given) {
    return ctx;
  }
  ctx.set = schemaSetOf(given);
  const root = ctx.set.get('schema');
  if (root !== undefined) {
    try {
      ctx.input = schemaType(root);
    } catch (e) {
      if (!(e instanceof SchemaError)) {
        throw e;
      }
      errors.push({
        code: 'rego_type_error',
        message: e.message,
        location: { file: '', row: 0, col: 0 },
      });
    }
  }
  return ctx;
}

function dedupe(errors: RegoErrorDetail[]): RegoErrorDetail[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    const k = `${e.location.file}:${e.location.row}:${e.location.col}:${e.code}:${e.message}`;
    if (seen.has(k)) {
      return false;
    }
    seen.add(k);
    return true;
  });
}

function groundPrefix(r: Rule): string[] {
  const out = [(r.head.ref[0] as { name: string }).name];
  for (const t of r.head.ref.slice(1)) {
    if (t.type !== 'scalar' || typeof t.value !== 'string') {
      break;
    }
    out.push(t.value);
  }
  return out;
}

function importsOf(m: Module, errors: RegoErrorDetail[]): Map<string, Term[]> {
  const out = new Map<string, Term[]>();
  for (const imp of m.imports) {
    const terms = imp.path.terms;
    const head = terms[0];
    if (head.type !== 'var' || (head.name !== 'data' && head.name !== 'input')) {
      continue;
    }
    const last = terms[terms.length - 1];
    const name =
      imp.alias ??
      (last.type === 'scalar' && typeof last.value === 'string'
        ? last.value
        : last.type === 'var'
          ? last.name
          : '');
    if (name && !(terms.length === 1 && !imp.alias)) {
      const prev = out.get(name);
      if (prev) {
        errors.push({
          code: 'rego_compile_error',
          message: `import must not shadow import ${refText(prev)}`,
          location: imp.loc,
        });
      }
      out.set(name, terms);
    }
  }
  return out;
}

function refText(terms: Term[]): string {
  return terms
    .map((t) =>
      t.type === 'var'
        ? t.name
        : t.type === 'scalar' && typeof t.value === 'string'
          ? t.value
          : '?',
    )
    .join('.');
}

function compileRule(
  r: Rule,
  m: Module,
  resolver: Resolver,
  safety: Safety,
  args?: Term[],
): CompiledRule {
  const scope = resolver.newScope();
  const argVars = new Set<string>();
  (r.head.args ?? []).forEach((a) => termVarsDeep(a, argVars));
  argVars.forEach((v) => resolver.declareSame(scope, v));
  const rargs = args ?? r.head.args?.map((a) => resolver.term(a, scope));
  const body = resolver.body(r.body, scope);
  if (rargs && !args) {
    // OPA's rewriteExprTermsInHead: a call among a function's arguments (a template string is one)
    // becomes a var unified with the call at the end of the body, so the body's vars reach it.
    rargs.forEach((a, i) => (rargs[i] = liftCalls(a, body, argVars)));
  }
  const prefix = groundPrefix(r);
  const tail = r.head.ref.slice(prefix.length).map((t) => resolver.term(t, scope));
  let value = r.head.key
    ? undefined
    : r.head.value
      ? resolver.term(r.head.value, scope)
      : ({ type: 'scalar', value: true, loc: r.head.loc } as Term);
  let key = r.head.key ? resolver.term(r.head.key, scope) : undefined;
  const known = new Set(argVars);
  body.forEach((e) => exprVarsShallow(e, known));
  value = value && hoist(value, known, body);
  key = key && hoist(key, known, body);
  const safe = safety.body(body, argVars, new Set());
  const visible = new Set(safe);
  body.forEach((e) => exprVarsShallow(e, visible));
  for (const t of [...tail, ...(value ? [value] : []), ...(key ? [key] : [])]) {
    safety.checkTerm(t, safe, visible, r.head.loc);
  }
  const slots = new SlotMap();
  const cargs = rargs?.map((a) => slots.term(a));
  const cbody = slots.body(body);
  const path = [...m.packagePath, ...prefix];
  const cr: CompiledRule = {
    kind: r.head.args ? 'func' : r.head.key ? 'multi' : 'single',
    path,
    tail: tail.map((t) => slots.term(t)),
    args: cargs,
    value: value ? slots.term(value) : undefined,
    key: key ? slots.term(key) : undefined,
    body: cbody,
    nslots: 0,
    isDefault: r.isDefault,
    constValue: value !== undefined && constantValue(value) !== undefined,
    loc: r.loc,
    name: ['data', ...path].join('.'),
  };
  cr.nslots = slots.size;
  if (r.elseRule) {
    cr.elseRule = compileRule(r.elseRule, m, resolver, safety);
    cr.nslots = Math.max(cr.nslots, cr.elseRule.nslots);
  }
  return cr;
}

function insert(root: DocNode, functions: Map<string, CompiledRule[]>, cr: CompiledRule): void {
  let node = root;
  const chain: DocNode[] = [root];
  for (const p of cr.path) {
    node = node.child(p);
    chain.push(node);
  }
  if (cr.kind === 'func') {
    if (cr.isDefault) {
      node.defaultCount++;
      node.defaultRule ??= cr;
    } else {
      node.funcs.push(cr);
    }
    chain.forEach((n) => (n.hasFuncs = true));
    // Ref-head functions make their intermediate nodes (but not themselves) empty documents.
    chain.slice(0, -1).forEach((n) => (n.hasRules = true));
    const key = cr.path.join('.');
    functions.set(key, node.funcs);
    return;
  }
  if (cr.isDefault) {
    node.defaultCount++;
    node.defaultRule ??= cr;
  } else {
    node.rules.push(cr);
  }
  chain.forEach((n) => (n.hasRules = true));
}

let hoisted = 0;

function liftCalls(t: Term, body: import('../ast/ast').Expr[], argVars: Set<string>): Term {
  switch (t.type) {
    case 'call': {
      const v: Term = { type: 'var', name: `$h${++hoisted}`, loc: t.loc, slot: -1 };
      argVars.add(v.name);
      body.push({ kind: 'unify', left: v, right: t, negated: false, withs: [], loc: t.loc });
      return v;
    }
    case 'array':
    case 'set':
      return { ...t, items: t.items.map((x) => liftCalls(x, body, argVars)) };
    case 'object':
      return {
        ...t,
        pairs: t.pairs.map(([k, v]) => [k, liftCalls(v, body, argVars)] as [Term, Term]),
      };
    case 'scalar':
    case 'var':
    case 'ref':
    case 'arraycomp':
    case 'setcomp':
    case 'objectcomp':
      return t;
  }
}

/** A head term with vars the body never mentions (`q := xs[_]`) is evaluated in the body. */
function hoist(t: Term, known: Set<string>, body: import('../ast/ast').Expr[]): Term {
  const vars = termVarsDeep(t, new Set());
  if ([...vars].every((v) => known.has(v)) || t.type === 'var') {
    return t;
  }
  const v: Term = { type: 'var', name: `$h${++hoisted}`, loc: t.loc, slot: -1 };
  body.push({ kind: 'unify', left: v, right: t, negated: false, withs: [], loc: t.loc });
  return v;
}
