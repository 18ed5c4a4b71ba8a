import { Location, Term } from '../../ast/ast';
import { compareValues } from '../../values/order';
import { Value } from '../../values/value';
import { parseSchemaRef, SchemaAnnotation } from '../schema-annotations';
import { CompiledRule } from '../types';
import { TypeEnv } from './env';
import { refText, TypeErrorDetail } from './refs';
import { SchemaError, schemaType } from './schema';
import { MaybeType, ObjectType, objectOf, StaticProperty, T_ANY, Type } from './types';

/**
 * What the type checker needs of JSON schemas (OPA's `SchemaSet`, input type and annotation set):
 * the caller's schemas by reference text (`schema.input`, `schema["acl-schema"]`; absent when the
 * caller gave none, as OPA without `--schema`), the type of `input` from the schema at `schema`,
 * and the schema annotations that apply to each rule.
 */
export interface SchemaContext {
  set?: Map<string, unknown>;
  input?: Type;
  byRule: Map<CompiledRule, SchemaAnnotation[]>;
}

const DYNAMIC_ANY = { key: T_ANY, value: T_ANY };

/** OPA's schema handling in `checkRule`. */
export function applySchemas(
  env: TypeEnv,
  annotations: SchemaAnnotation[],
  ctx: SchemaContext,
  cache: Map<string, Type>,
  loc: Location,
): TypeErrorDetail[] {
  const errors: TypeErrorDetail[] = [];
  for (const a of annotations) {
    let t: Type | undefined;
    try {
      t = schemaOf(a, ctx, cache);
    } catch (e) {
      if (!(e instanceof SchemaError)) {
        throw e;
      }
      errors.push({ message: e.message, location: loc, nilCause: false });
      continue;
    }
    const head = a.path[0];
    if (!t || head.type !== 'var' || (head.name !== 'input' && head.name !== 'data')) {
      // Not a document of this engine's (OPA would type a local of that name): nothing to do.
      continue;
    }
    const keys = a.path.slice(1).map(keyOf);
    if (keys.some((k) => k === undefined)) {
      errors.push({
        message: `error getting key from value: ${refText(a.path)}`,
        location: loc,
        nilCause: false,
      });
      continue;
    }
    const root: 'input' | 'data' = head.name === 'input' ? 'input' : 'data';
    env.setRoot(root, keys.length === 0 ? t : override(keys as Value[], env.rootType(root), t));
  }
  return errors;
}

function keyOf(t: Term): Value | undefined {
  return t.type === 'scalar' ? t.value : undefined;
}

/** OPA's `getSchemaType`: schemas of the set are converted once, inline ones every time. */
function schemaOf(
  a: SchemaAnnotation,
  ctx: SchemaContext,
  cache: Map<string, Type>,
): Type | undefined {
  if (a.schema) {
    if (!ctx.set) {
      // No schema set at all: references to it are ignored, as OPA does without `--schema`.
      return undefined;
    }
    const key = refText(a.schema);
    const hit = cache.get(key);
    if (hit) {
      return hit;
    }
    const doc = ctx.set.get(key);
    if (doc === undefined) {
      throw new SchemaError(`undefined schema: ${key}`);
    }
    const t = schemaType(doc);
    cache.set(key, t);
    return t;
  }
  return schemaType(a.definition);
}

/** OPA's `override`: `t` with the member at `path` replaced by (or given) type `o`. */
function override(path: Value[], t: MaybeType, o: Type): Type {
  if (t?.kind !== 'object') {
    return nested(path, o, DYNAMIC_ANY);
  }
  let found = false;
  const props: StaticProperty[] = t.static.map((p) => {
    if (compareValues(path[0], p.key) !== 0) {
      return p;
    }
    found = true;
    return { key: p.key, value: path.length === 1 ? o : override(path.slice(1), p.value, o) };
  });
  if (!found) {
    props.push(...nested(path, o, t.dynamic).static);
  }
  return objectOf(props, t.dynamic);
}

/** OPA's `getObjectTypeRec`: objects nested along `path`, each with the dynamic part `d`. */
function nested(path: Value[], o: Type, d: ObjectType['dynamic']): ObjectType {
  const value = path.length === 1 ? o : nested(path.slice(1), o, d);
  return objectOf([{ key: path[0], value }], d);
}

/** Reads a schema set given by the caller. */
export function schemaSetOf(schemas: Record<string, unknown>): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [k, v] of Object.entries(schemas)) {
    out.set(schemaKey(k), v);
  }
  return out;
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

function schemaKey(k: string): string {
  if (k === 'schema' || k.startsWith('schema.') || k.startsWith('schema[')) {
    const ref = parseSchemaRef(k);
    if (!ref) {
      throw new Error(`invalid schema reference: ${k}`);
    }
    return refText(ref);
  }
  const parts = k.split('/').filter((p) => p !== '');
  return 'schema' + parts.map((p) => (IDENT.test(p) ? '.' + p : `[${JSON.stringify(p)}]`)).join('');
}
