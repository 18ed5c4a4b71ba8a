import { parse as parseYaml } from 'yaml';
import { Location, Module, Rule, Term } from '../ast/ast';
import { RegoErrorDetail } from '../errors';
import { CompiledRule } from './types';
import { walkRule } from './walk';

// OPA's METADATA annotations (v1/ast/annotations.go): a `# METADATA` comment block of YAML before a
// package or rule. rego.metadata.rule() and rego.metadata.chain() are replaced by their constant
// values at compile time, as OPA's compiler does (rewriteRegoMetadataCalls).

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Annotation = { [k: string]: Json };

/** Annotation blocks of a module, by the row of the statement each one precedes. */
function blocks(source: string, file: string, errors: RegoErrorDetail[]): Map<number, Annotation> {
  const lines = source.split('\n');
  const out = new Map<number, Annotation>();
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*#\s*METADATA\s*$/.test(lines[i])) {
      continue;
    }
    const start = i + 1;
    const yaml: string[] = [];
    let j = i + 1;
    for (; j < lines.length && /^\s*#/.test(lines[j]); j++) {
      yaml.push(lines[j].replace(/^\s*# ?/, ''));
    }
    while (j < lines.length && lines[j].trim() === '') {
      j++;
    }
    try {
      const doc = (parseYaml(yaml.join('\n')) ?? {}) as Annotation;
      out.set(j + 1, normalize(doc));
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

function normalize(doc: Annotation): Annotation {
  const out: Annotation = { ...doc };
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

/** Where each annotation applies, across modules. */
export class Annotations {
  private readonly byRule = new Map<Rule, Annotation>();
  private readonly documents = new Map<string, Annotation[]>();
  private readonly packages = new Map<string, Annotation[]>();
  private readonly subpackages = new Map<string, Annotation[]>();

  constructor(
    modules: { module: Module; source: string }[],
    rulePath: (r: Rule) => string[],
    errors: RegoErrorDetail[],
  ) {
    for (const { module, source } of modules) {
      if (!source.includes('METADATA')) {
        continue;
      }
      const found = blocks(source, module.file, errors);
      const pkg = found.get(module.packageLoc.row);
      if (pkg) {
        const scope = typeof pkg.scope === 'string' ? pkg.scope : 'package';
        const map = scope === 'subpackages' ? this.subpackages : this.packages;
        add(map, module.packagePath.join('.'), { ...pkg, scope });
      }
      for (const r of module.rules) {
        const a = found.get(r.loc.row);
        if (!a) {
          continue;
        }
        const scope = typeof a.scope === 'string' ? a.scope : 'rule';
        if (scope === 'document') {
          add(this.documents, rulePath(r).join('.'), { ...a, scope });
        } else {
          this.byRule.set(r, { ...a, scope });
        }
      }
    }
  }

  get empty(): boolean {
    return (
      this.byRule.size + this.documents.size + this.packages.size + this.subpackages.size === 0
    );
  }

  rule(r: Rule): Annotation {
    return this.byRule.get(r) ?? {};
  }

  chain(r: Rule, path: string[], pkg: string[]): Json[] {
    const own = this.byRule.get(r);
    const out: Json[] = [own ? { path, annotations: own } : { path }];
    for (const a of this.documents.get(path.join('.')) ?? []) {
      out.push({ path, annotations: a });
    }
    for (const a of this.packages.get(pkg.join('.')) ?? []) {
      out.push({ path: pkg, annotations: a });
    }
    for (let n = pkg.length; n >= 0; n--) {
      for (const a of this.subpackages.get(pkg.slice(0, n).join('.')) ?? []) {
        out.push({ path: pkg.slice(0, n), annotations: a });
      }
    }
    return out;
  }
}

function add(map: Map<string, Annotation[]>, key: string, a: Annotation): void {
  map.set(key, [...(map.get(key) ?? []), a]);
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
