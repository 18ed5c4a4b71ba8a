import { parse as parseYaml } from 'yaml';
import { Location, Module, Rule, Term } from '../ast/ast';
import { RegoErrorDetail } from '../errors';
import { parseSchemas, refStrings, SchemaAnnotation } from './schema-annotations';
import { CompiledRule } from './types';
import { walkRule } from './walk';

// OPA's METADATA annotations (v1/ast/annotations.go).

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Annotation = { [k: string]: Json };

/** One METADATA block: its YAML, where it starts and its parsed `schemas`. */
interface Block {
  doc: Annotation;
  location: Location;
  schemas: SchemaAnnotation[];
}

// Annotation blocks of a module, by the row of the statement each one precedes (OPA attaches a
// block to the first statement after it, so several blocks may precede one rule), in file order.
function blocks(source: string, file: string, errors: RegoErrorDetail[]): Map<number, Block[]> {
  const lines = source.split('\n');
  const out = new Map<number, Block[]>();
  for (let i = 0; i < lines.length; i++) {
    // OPA starts a block at a comment whose text begins with METADATA (`# METADATA for p` too).
    if (!/^\s*#\s*METADATA/.test(lines[i])) {
      continue;
    }
    const start = i + 1;
    const yaml: string[] = [];
    let j = i + 1;
    for (; j < lines.length && /^\s*#/.test(lines[j]); j++) {
      yaml.push(lines[j].replace(/^\s*# ?/, ''));
    }
    let target = j;
    while (target < lines.length && (lines[target].trim() === '' || /^\s*#/.test(lines[target]))) {
      target++;
    }
    try {
      const doc = (parseYaml(yaml.join('\n')) ?? {}) as Annotation;
      const location = { file, row: start, col: 1 };
      const schemas = parseSchemas(doc);
      if (typeof schemas === 'string') {
        errors.push({ code: 'rego_parse_error', message: schemas, location });
      } else {
        const list = out.get(target + 1) ?? [];
        list.push({ doc: normalize(doc, schemas), location, schemas });
        out.set(target + 1, list);
      }
    } catch (e) {
      errors.push({
        code: 'rego_parse_error',
        message: `yaml: ${e instanceof Error ? e.message : String(e)}`,
        location: { file, row: start, col: 1 },
      });
    }
    i = j - 1;
  }
  return out;
}

/** `"Jane Doe <jane@example.com>"` → `{name, email}`, as OPA reads authors. */
function author(a: Json): Json {
  if (typeof a !== 'string') {
    return a;
  }
  const m = /^(.*?)\s*<([^>]+)>\s*$/.exec(a);
  return m ? (m[1] ? { name: m[1], email: m[2] } : { email: m[2] }) : { name: a.trim() };
}

function normalize(doc: Annotation, schemas: SchemaAnnotation[]): Annotation {
  const out: Annotation = { ...doc };
  if (schemas.length > 0) {
    out.schemas = schemas.map((x) => ({
      path: refStrings(x.path),
      ...(x.schema ? { schema: refStrings(x.schema) } : {}),
      ...(x.definition !== undefined ? { definition: x.definition as Json } : {}),
    }));
  }
  if (Array.isArray(doc.authors)) {
    out.authors = doc.authors.map(author);
  }
  if (Array.isArray(doc.related_resources)) {
    out.related_resources = doc.related_resources.map((r) =>
      typeof r === 'string' ? { ref: r } : r,
    );
  }
  return out;
}

/** An annotation with the scope it applies in. */
interface Scoped {
  doc: Annotation;
  location: Location;
  schemas: SchemaAnnotation[];
}

const SEP = '\u0000';

/** Where each annotation applies, across modules (OPA's `AnnotationSet`). */
export class Annotations {
  /** Rule-scoped annotations of each rule, in file order. */
  private readonly byRule = new Map<Rule, Scoped[]>();
  private readonly packages = new Map<string, Scoped>();
  private readonly byPath = new Map<string, Scoped & { scope: string }>();

  constructor(
    modules: { module: Module; source: string }[],
    rulePath: (r: Rule) => string[],
    errors: RegoErrorDetail[],
  ) {
    // OPA builds the set from the modules sorted by name, so a redeclaration is reported on the
    // module that sorts last.
    const sorted = [...modules].sort((a, b) =>
      a.module.file < b.module.file ? -1 : a.module.file > b.module.file ? 1 : 0,
    );
    for (const { module, source } of sorted) {
      if (!source.includes('METADATA')) {
        continue;
      }
      const found = blocks(source, module.file, errors);
      const pkgPath = ['data', ...module.packagePath];
      for (const pkg of found.get(module.packageLoc.row) ?? []) {
        const scope = typeof pkg.doc.scope === 'string' ? pkg.doc.scope : 'package';
        const a = { ...pkg, doc: { ...pkg.doc, scope } };
        const misplaced = attachmentError(scope, 'package', a.location);
        if (misplaced) {
          errors.push(misplaced);
        } else if (scope === 'subpackages') {
          this.addPath(pkgPath, a, scope, errors);
        } else {
          const key = pkgPath.join(SEP);
          const exist = this.packages.get(key);
          if (exist) {
            errors.push(redeclared(scope, a.location, exist.location));
          } else {
            this.packages.set(key, a);
          }
        }
      }
      for (const r of module.rules) {
        for (const b of found.get(r.loc.row) ?? []) {
          this.addRuleBlock(r, b, rulePath, errors);
        }
      }
    }
  }

  private addRuleBlock(
    r: Rule,
    b: Block,
    rulePath: (r: Rule) => string[],
    errors: RegoErrorDetail[],
  ): void {
    // OPA: an entrypoint's annotation is document-scoped unless it says otherwise.
    const scope =
      typeof b.doc.scope === 'string'
        ? b.doc.scope
        : b.doc.entrypoint === true
          ? 'document'
          : 'rule';
    const a = { ...b, doc: { ...b.doc, scope } };
    const misplaced = attachmentError(scope, 'rule', a.location);
    if (misplaced) {
      errors.push(misplaced);
    } else if (scope === 'document') {
      this.addPath(['data', ...rulePath(r)], a, scope, errors);
    } else {
      this.byRule.set(r, [...(this.byRule.get(r) ?? []), a]);
    }
  }

  private addPath(path: string[], a: Scoped, scope: string, errors: RegoErrorDetail[]): void {
    const key = path.join(SEP);
    const exist = this.byPath.get(key);
    if (exist) {
      errors.push(redeclared(scope, a.location, exist.location));
      return;
    }
    this.byPath.set(key, { ...a, scope });
  }

  get empty(): boolean {
    return this.byRule.size + this.packages.size + this.byPath.size === 0;
  }

  /** OPA's `rego.metadata.rule()`: the rule-scoped block closest to the rule. */
  rule(r: Rule): Annotation {
    return this.byRule.get(r)?.at(-1)?.doc ?? {};
  }

  chain(r: Rule, path: string[], pkg: string[]): Json[] {
    const own = [...(this.byRule.get(r) ?? [])].reverse();
    const out: Json[] =
      own.length > 0 ? own.map((a) => ({ path, annotations: a.doc })) : [{ path }];
    const doc = this.byPath.get(['data', ...path].join(SEP));
    if (doc?.scope === 'document') {
      out.push({ path, annotations: doc.doc });
    }
    const p = this.packages.get(['data', ...pkg].join(SEP));
    if (p) {
      out.push({ path: pkg, annotations: p.doc });
    }
    for (let n = pkg.length; n >= 0; n--) {
      const sub = this.byPath.get(['data', ...pkg.slice(0, n)].join(SEP));
      if (sub?.scope === 'subpackages') {
        out.push({ path: pkg.slice(0, n), annotations: sub.doc });
      }
    }
    return out;
  }

  // The schema annotations that apply to a rule, in the order OPA applies them (each overriding the
  // ones before): subpackages from the root down, package, document, then the rule's own (an `else`
  // branch has none of its own, as in OPA).
  schemasFor(r: Rule, path: string[], pkg: string[], own: boolean): SchemaAnnotation[] {
    const out: SchemaAnnotation[] = [];
    const pkgPath = ['data', ...pkg];
    for (let n = 1; n <= pkgPath.length; n++) {
      out.push(...(this.byPath.get(pkgPath.slice(0, n).join(SEP))?.schemas ?? []));
    }
    out.push(...(this.packages.get(pkgPath.join(SEP))?.schemas ?? []));
    out.push(...(this.byPath.get(['data', ...path].join(SEP))?.schemas ?? []));
    if (own) {
      (this.byRule.get(r) ?? []).forEach((a) => out.push(...a.schemas));
    }
    return out;
  }
}

/** OPA's `validateAnnotationScopeAttachment`: rule and document scopes on rules, the others on packages. */
function attachmentError(
  scope: string,
  node: 'rule' | 'package',
  location: Location,
): RegoErrorDetail | undefined {
  const want =
    scope === 'rule' || scope === 'document'
      ? 'rule'
      : scope === 'package' || scope === 'subpackages'
        ? 'package'
        : undefined;
  if (want === node) {
    return undefined;
  }
  return {
    code: 'rego_parse_error',
    message: want
      ? `annotation scope '${scope}' must be applied to ${want} (have ${node})`
      : `invalid annotation scope '${scope}'. Use one of 'rule', 'document', 'package', or 'subpackages'`,
    location,
  };
}

function redeclared(scope: string, at: Location, other: Location): RegoErrorDetail {
  return {
    code: 'rego_type_error',
    message: `${scope} annotation redeclared: ${other.file}:${other.row}`,
    location: at,
  };
}

function constantTerm(v: Json, loc: Location): Term {
  if (Array.isArray(v)) {
    return { type: 'array', items: v.map((x) => constantTerm(x, loc)), loc };
  }
  if (v !== null && typeof v === 'object') {
    return {
      type: 'object',
      pairs: Object.entries(v).map(
        ([k, x]) => [{ type: 'scalar', value: k, loc }, constantTerm(x, loc)] as [Term, Term],
      ),
      loc,
    };
  }
  return { type: 'scalar', value: v, loc };
}

/** Replaces `rego.metadata.rule()` and `rego.metadata.chain()` in a compiled rule by their values. */
export function rewriteMetadataCalls(
  cr: CompiledRule,
  rule: Rule,
  annotations: Annotations,
  pkg: string[],
): void {
  walkRule(cr, (t) => {
    if (t.type !== 'call' || t.target?.kind !== 'builtin' || t.args.length !== 0) {
      return;
    }
    const name = t.target.name;
    if (name !== 'rego.metadata.rule' && name !== 'rego.metadata.chain') {
      return;
    }
    const value =
      name === 'rego.metadata.rule'
        ? annotations.rule(rule)
        : annotations.chain(rule, cr.path, pkg);
    const replacement = constantTerm(value, t.loc);
    for (const k of Object.keys(t)) {
      delete (t as unknown as Record<string, unknown>)[k];
    }
    Object.assign(t, replacement);
  });
}
