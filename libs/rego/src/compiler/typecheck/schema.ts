import { anyOf, arrayOf, MaybeType, objectOf, or, StaticProperty, T_ANY, Type } from './types';

// Other keywords (`additionalProperties`, `oneOf`, `required`, `enum`, formats) do not change the
// type: an object with `properties` has exactly those keys, whatever `additionalProperties` says.

const JSON_TYPES = ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'];

/** The part of gojsonschema's `SubSchema` that OPA's conversion reads. */
interface SubSchema {
  types: string[];
  property: string;
  properties: SubSchema[];
  items: SubSchema[];
  itemsIsSingle: boolean;
  anyOf?: SubSchema[];
  allOf?: SubSchema[];
  ref?: string;
  refSchema?: SubSchema;
}

/** A schema that cannot be compiled or converted; the message is OPA's. */
export class SchemaError extends Error {}

type Json = unknown;

function isObject(x: Json): x is Record<string, Json> {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}

/** Compiles a schema document (gojsonschema's `SchemaLoader.Compile`), resolving local `$ref`s. */
function compileSchema(doc: Json): SubSchema {
  if (doc === undefined || doc === null) {
    throw new SchemaError('no schema as input to compile');
  }
  const byRef = new Map<string, SubSchema>();
  const pending: SubSchema[] = [];
  const parse = (node: Json, property: string): SubSchema => {
    const s: SubSchema = { types: [], property, properties: [], items: [], itemsIsSingle: false };
    if (!isObject(node)) {
      // A boolean schema (`true`/`false`) carries no type.
      if (typeof node === 'boolean') {
        return s;
      }
      throw new SchemaError('unable to compile the schema: schema is invalid');
    }
    if (typeof node.$ref === 'string') {
      s.ref = node.$ref;
      pending.push(s);
    }
    const t = node.type;
    for (const name of typeof t === 'string' ? [t] : Array.isArray(t) ? t : []) {
      if (typeof name !== 'string' || !JSON_TYPES.includes(name)) {
        throw new SchemaError(
          `unable to compile the schema: has a primitive type that is NOT VALID -- given: /${String(name)}/ Expected valid values are:[${JSON_TYPES.join(' ')}]`,
        );
      }
      if (s.types.includes(name)) {
        throw new SchemaError(`unable to compile the schema: ${name} type is duplicated`);
      }
      s.types.push(name);
    }
    if (isObject(node.properties)) {
      for (const [k, v] of Object.entries(node.properties)) {
        s.properties.push(parse(v, k));
      }
    }
    if (Array.isArray(node.items)) {
      s.items = node.items.map((x) => parse(x, ''));
    } else if (node.items !== undefined) {
      s.items = [parse(node.items, '')];
      s.itemsIsSingle = true;
    }
    if (Array.isArray(node.anyOf)) {
      s.anyOf = node.anyOf.map((x) => parse(x, ''));
    }
    if (Array.isArray(node.allOf)) {
      s.allOf = node.allOf.map((x) => parse(x, ''));
    }
    return s;
  };
  const root = parse(doc, '');
  // A reference to the document's own URI (`$id`, draft-04's `id`) is local too.
  const id = isObject(doc) ? (doc.$id ?? doc.id) : undefined;
  const self = typeof id === 'string' ? id.split('#')[0] : '';
  const resolve = (given: string): SubSchema => {
    const ref = self !== '' && given.startsWith(self + '#') ? given.slice(self.length) : given;
    const hit = byRef.get(ref);
    if (hit) {
      return hit;
    }
    if (!ref.startsWith('#')) {
      // gojsonschema would fetch the document; this engine never loads schemas over the network.
      throw new SchemaError(
        `unable to compile the schema: remote reference loading disabled: ${ref.split('#')[0]}`,
      );
    }
    let node: Json = doc;
    for (const raw of ref.slice(1).split('/').slice(1)) {
      const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      node = isObject(node) ? node[key] : Array.isArray(node) ? node[Number(key)] : undefined;
      if (node === undefined) {
        throw new SchemaError(
          `unable to compile the schema: Object has no key '${key}' (reference ${ref})`,
        );
      }
    }
    const s = ref === '#' || ref === '#/' ? root : parse(node, '');
    byRef.set(ref, s);
    return s;
  };
  while (pending.length > 0) {
    const s = pending.pop() as SubSchema;
    s.refSchema = resolve(s.ref as string);
  }
  return root;
}

/** gojsonschema's `jsonSchemaType.String`. */
function typesText(types: string[]): string {
  if (types.length === 0) {
    return 'undefined';
  }
  return types.length > 1 ? `[${types.join(',')}]` : types[0];
}

/** OPA's `mergeSchemas` (an `allOf`): same types, properties and items concatenated. */
function mergeSchemas(schemas: SubSchema[]): SubSchema {
  const result = schemas[0];
  for (const s of schemas) {
    if (s.properties.length > 0) {
      if (!s.types.includes('object')) {
        s.types.push('object');
      }
    } else if (s.items.length > 0 && !s.types.includes('array')) {
      s.types.push('array');
    }
  }
  for (const s of schemas.slice(1)) {
    if (typesText(result.types) !== typesText(s.types)) {
      throw new SchemaError(
        `unable to merge these schemas: type mismatch: ${typesText(result.types)} and ${typesText(s.types)}`,
      );
    }
    if (
      result.types.includes('object') &&
      result.properties.length > 0 &&
      s.properties.length > 0
    ) {
      result.properties = [...result.properties, ...s.properties];
    } else if (result.types.includes('array') && result.items.length > 0 && s.items.length > 0) {
      for (let j = 0; j < s.items.length; j++) {
        if (result.items.length - 1 < j) {
          result.items.push(s.items[j]);
        }
        if (typesText(result.items[j].types) !== typesText(s.items[j].types)) {
          throw new SchemaError('unable to merge these schemas');
        }
      }
    }
  }
  return result;
}

/** OPA's `schemaParser`: a cache of the object definitions reached through `$ref`. */
class SchemaParser {
  private readonly definitions = new Map<string, StaticProperty[]>();

  parse(s: SubSchema, propertyKey = ''): Type {
    if (s.refSchema) {
      const cached = this.definitions.get(s.ref as string);
      // A definition met again (recursion included) is the object whose properties are filled in
      // as its first conversion proceeds, as in OPA.
      return cached ? objectOf(cached) : this.parse(s.refSchema, s.ref);
    }
    if (s.anyOf) {
      let out: MaybeType;
      if (s.types.length > 0) {
        const core = this.parse({ ...s, anyOf: undefined });
        // Only an object with properties and no dynamic part joins the union.
        if (core.kind === 'object' && core.static.length > 0 && !core.dynamic) {
          out = or(out, core);
        }
      }
      for (const x of s.anyOf) {
        out = or(this.parse(x), out);
      }
      return out ?? anyOf();
    }
    if (s.allOf) {
      const merged = mergeSchemas(s.allOf);
      if (s.types.length > 0) {
        if (
          (s.types.includes('object') && merged.types.includes('object')) ||
          (s.types.includes('array') && merged.types.includes('array'))
        ) {
          return this.parse(mergeSchemas([merged, s]));
        }
        if (typesText(s.types) !== typesText(merged.types)) {
          throw new SchemaError('unable to merge these schemas');
        }
      }
      return this.parse(merged);
    }
    const typed = s.types.length > 0 ? this.typed(s, propertyKey) : undefined;
    if (typed) {
      return typed;
    }
    // Types assumed when the schema names none of those above.
    if (s.properties.length > 0) {
      return this.parse({ ...s, types: [...s.types, 'object'] });
    }
    if (s.items.length > 0) {
      return this.parse({ ...s, types: [...s.types, 'array'] });
    }
    return T_ANY;
  }

  private typed(s: SubSchema, propertyKey: string): Type | undefined {
    const has = (t: string): boolean => s.types.includes(t);
    if (has('boolean')) {
      return { kind: 'boolean' };
    }
    if (has('string')) {
      return { kind: 'string' };
    }
    if (has('integer') || has('number')) {
      return { kind: 'number' };
    }
    if (has('object')) {
      if (s.properties.length === 0) {
        return objectOf([], { key: T_ANY, value: T_ANY });
      }
      const props: StaticProperty[] = s.properties.map((p) => ({
        key: p.property,
        value: undefined,
      }));
      if (propertyKey !== '') {
        this.definitions.set(propertyKey, props);
      }
      for (const p of s.properties) {
        const t = this.parse(p);
        const prop = props.find((x) => x.key === p.property);
        if (prop) {
          prop.value = t;
        }
      }
      return objectOf(props);
    }
    if (has('array')) {
      if (s.items.length === 0) {
        return arrayOf([], T_ANY);
      }
      if (s.itemsIsSingle) {
        return arrayOf([], this.parse(s.items[0]));
      }
      return arrayOf(s.items.map((x) => this.parse(x)));
    }
    return undefined;
  }
}

/** OPA's `loadSchema`: the type a JSON Schema document gives the values it describes. */
export function schemaType(doc: Json): Type {
  const compiled = compileSchema(doc);
  try {
    return new SchemaParser().parse(compiled);
  } catch (e) {
    if (e instanceof SchemaError) {
      throw new SchemaError(`type checking: ${e.message}`);
    }
    throw e;
  }
}
