import fc from 'fast-check';

export type JsonSchema = Record<string, unknown>;
export type Schemas = Record<string, JsonSchema>;

const REF = '#/components/schemas/';
/** Bodies stay small on the valid side: size is what the violations are for. */
const MAX_ITEMS = 3;
const MAX_DEPTH = 4;

/** Strings people do not type: NUL, lone surrogates, right-to-left overrides, emoji, BOM (issue 18 § 3). */
export const ODD_STRINGS: readonly string[] = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  'x\ud83dy',
  '\u202eevil\u202c',
  '\u200f\u05e9\u05dc\u05d5\u05dd',
  '👩‍👩‍👧‍👦🏳️‍🌈',
  '\ufeff',
  '\u0301\u0301\u0301',
  'Ω≈ç√∫˜µ≤≥÷',
  "'; DROP TABLE users; --",
  '%00%0d%0a',
  '${jndi:ldap://x}',
  '{{7*7}}',
  '../../etc/passwd',
  ' ',
  '',
];

/** Any string, often a hostile one. */
export function oddString(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...ODD_STRINGS),
    fc.string({ unit: 'binary', maxLength: 30 }),
    fc.string({ unit: 'grapheme', maxLength: 30 }),
  );
}

export function resolve(schema: JsonSchema, schemas: Schemas): JsonSchema {
  let current = schema;
  for (let hops = 0; typeof current.$ref === 'string' && hops < 10; hops += 1) {
    current = schemas[current.$ref.replace(REF, '')] ?? {};
  }
  return current;
}

/** An object schema's properties and required names, `allOf` parents included. */
export function objectShape(
  schema: JsonSchema,
  schemas: Schemas,
): { properties: Record<string, JsonSchema>; required: string[] } {
  const resolved = resolve(schema, schemas);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const parent of (resolved.allOf ?? []) as JsonSchema[]) {
    const shape = objectShape(parent, schemas);
    Object.assign(properties, shape.properties);
    required.push(...shape.required);
  }
  Object.assign(properties, (resolved.properties ?? {}) as Record<string, JsonSchema>);
  required.push(...((resolved.required ?? []) as string[]));
  return { properties, required: [...new Set(required)] };
}

function typesOf(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) {
    return schema.type as string[];
  }
  if (typeof schema.type === 'string') {
    return [schema.type];
  }
  if (schema.properties || schema.allOf) {
    return ['object'];
  }
  if (schema.items) {
    return ['array'];
  }
  return [];
}

function stringOf(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const maxLength = Math.max(
    minLength,
    Math.min(typeof schema.maxLength === 'number' ? schema.maxLength : 40, 40),
  );
  switch (schema.format) {
    case 'uuid':
      return fc.uuid();
    case 'email':
      return fc.emailAddress().filter((email) => email.length <= 200);
    case 'date-time':
      return fc
        .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
        .map((date) => date.toISOString());
    case 'uri':
    case 'url':
      return fc.webUrl();
    default:
  }
  if (typeof schema.pattern === 'string') {
    try {
      return fc
        .stringMatching(new RegExp(schema.pattern))
        .filter((value) => value.length >= minLength && value.length <= Math.max(maxLength, 200));
    } catch {
      // A pattern JavaScript cannot compile: plain strings then.
    }
  }
  return fc.string({ minLength, maxLength });
}

/**
 * Values the documented JSON Schema allows (as class-validator-jsonschema writes them from the
 * DTOs): what a well-behaved client sends. Custom validators the document cannot state may still
 * refuse some of them, which the oracles allow (a 400 is an answer, not a defect).
 */
export function validValue(schema: JsonSchema, schemas: Schemas, depth = 0): fc.Arbitrary<unknown> {
  const resolved = resolve(schema, schemas);
  if (Array.isArray(resolved.enum) && resolved.enum.length > 0) {
    return fc.constantFrom(...(resolved.enum as unknown[]));
  }
  if ('const' in resolved) {
    return fc.constant(resolved.const);
  }
  const alternatives = (resolved.oneOf ?? resolved.anyOf) as JsonSchema[] | undefined;
  if (alternatives?.length) {
    return fc.oneof(...alternatives.map((alternative) => validValue(alternative, schemas, depth)));
  }
  const types = typesOf(resolved);
  if (types.length > 1) {
    return fc.oneof(...types.map((type) => validValue({ ...resolved, type }, schemas, depth)));
  }
  switch (types[0]) {
    case 'string':
      return stringOf(resolved);
    case 'integer':
      return fc.integer({
        min: typeof resolved.minimum === 'number' ? resolved.minimum : -1000,
        max: typeof resolved.maximum === 'number' ? resolved.maximum : 100_000,
      });
    case 'number':
      return fc.double({
        min: typeof resolved.minimum === 'number' ? resolved.minimum : -1e6,
        max: typeof resolved.maximum === 'number' ? resolved.maximum : 1e6,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(
        depth >= MAX_DEPTH
          ? fc.constant(null)
          : validValue((resolved.items ?? {}) as JsonSchema, schemas, depth + 1),
        {
          minLength: typeof resolved.minItems === 'number' ? resolved.minItems : 0,
          maxLength: Math.max(
            typeof resolved.minItems === 'number' ? resolved.minItems : 0,
            Math.min(
              typeof resolved.maxItems === 'number' ? resolved.maxItems : MAX_ITEMS,
              MAX_ITEMS,
            ),
          ),
        },
      );
    case 'object':
      return validObject(resolved, schemas, depth);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function validObject(schema: JsonSchema, schemas: Schemas, depth: number): fc.Arbitrary<unknown> {
  const { properties, required } = objectShape(schema, schemas);
  const names = Object.keys(properties);
  if (names.length === 0 || depth >= MAX_DEPTH) {
    return fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), {
      maxKeys: 3,
    });
  }
  const model = Object.fromEntries(
    names.map((name) => [name, validValue(properties[name], schemas, depth + 1)]),
  );
  return fc.record(model, { requiredKeys: required.filter((name) => name in model) });
}

/** A value of another JSON type than the schema's: the "wrong type" violation. */
export function wrongTypeValue(schema: JsonSchema, schemas: Schemas): fc.Arbitrary<unknown> {
  const types = new Set(typesOf(resolve(schema, schemas)));
  const candidates: Array<[string, fc.Arbitrary<unknown>]> = [
    ['string', oddString()],
    ['integer', fc.oneof(fc.integer(), fc.constantFrom(-1, 0, 2 ** 31, -(2 ** 53), 1e308))],
    ['number', fc.constantFrom(0.5, -1e-9, 1.7976931348623157e308)],
    ['boolean', fc.boolean()],
    ['null', fc.constant(null)],
    ['array', fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 })],
    [
      'object',
      fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
    ],
  ];
  const other = candidates.filter(
    ([type]) => !types.has(type) && !(type === 'integer' && types.has('number')),
  );
  return fc.oneof(...(other.length ? other : candidates).map(([, arbitrary]) => arbitrary));
}
