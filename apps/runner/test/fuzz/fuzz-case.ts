import fc from 'fast-check';

import { FuzzOperation } from './fuzz-operations';
import {
  JsonSchema,
  Schemas,
  objectShape,
  oddString,
  resolve,
  validValue,
  wrongTypeValue,
} from './schema-arbitrary';

/** Who sends the request (issue 18 § 3). */
export const CALLER_KINDS = ['no-token', 'other-tenant', 'too-few-permissions', 'right'] as const;
export type CallerKind = (typeof CALLER_KINDS)[number];

/**
 * A path identifier: a resource of tenant A (the callers' tenant), one of tenant B (the other
 * tenant's, which A must never reach), or a literal (a random UUID, or no UUID at all).
 */
export type PathArgument = { tenant: 'a' | 'b'; pick: number } | { literal: string };

/** A body, kept small in recorded cases: huge and deep ones are built when sent. */
export type FuzzBody =
  { json: unknown } | { raw: string } | { deep: number; under?: string } | { huge: number };

/**
 * One generated request, as data: JSON-serialisable so that a case that found a defect can be
 * recorded and replayed against a fresh platform (tokens and identifiers are resolved when sent).
 */
export interface FuzzCase {
  operation: string;
  caller: CallerKind;
  /** For `no-token`: the Authorization header sent instead of a token, if any. */
  authorization?: string;
  mutation: string;
  path: Record<string, PathArgument>;
  query: Array<[string, string]>;
  contentType?: string;
  body?: FuzzBody;
}

export interface CaseOptions {
  schemas: Schemas;
  /** Only violations (the state oracle's phase): no `valid` mutation. */
  invalidOnly?: boolean;
}

const NOT_UUIDS = [
  '1',
  'abc',
  'null',
  'undefined',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '{3fa85f64-5717-4562-b3fc-2c963f66afa6}',
  '3FA85F64-5717-4562-B3FC-2C963F66AFA6',
  '3fa85f64571745%2062b3fc2c963f66afa6',
  '..%2F..%2Fetc',
  '%00',
  '%E2%80%AE',
  '%F0%9F%98%80',
  '%ED%A0%80',
  'a'.repeat(3000),
  '-1',
  '1e309',
  "'or'1'='1",
];

const BAD_AUTHORIZATION = [
  'Bearer not-a-token',
  'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
  'Basic Zm9vOmJhcg==',
  'Bearer ',
  `Bearer ${'a'.repeat(9000)}`,
];

const BAD_QUERY_VALUES = [
  '',
  '-1',
  '0',
  'NaN',
  '1e400',
  '99999999999999999999999',
  'true',
  '[]',
  '{"$gt":""}',
  'a'.repeat(5000),
  '%00',
  '\u202e',
  '\ud800',
];

const WRONG_CONTENT_TYPES = [
  'text/plain',
  'application/xml',
  'multipart/form-data; boundary=x',
  'application/x-www-form-urlencoded',
  'application/json; charset=utf-16',
  'application/octet-stream',
  'image/png',
];

const MALFORMED_JSON = [
  '{',
  '{"a":',
  'nul',
  '{"a":1}x',
  '[1,2',
  '\u0000',
  '{"a":"\\ud800"}',
  "{'a':1}",
];

const UNKNOWN_KEYS = ['__proto__', 'constructor', 'prototype', 'tenantId', 'id', 'isAdmin', 'zz'];

function callerArbitrary(): fc.Arbitrary<Pick<FuzzCase, 'caller' | 'authorization'>> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant({ caller: 'no-token' as const }) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(...BAD_AUTHORIZATION)
        .map((authorization) => ({ caller: 'no-token' as const, authorization })),
    },
    { weight: 4, arbitrary: fc.constant({ caller: 'other-tenant' as const }) },
    { weight: 4, arbitrary: fc.constant({ caller: 'too-few-permissions' as const }) },
    { weight: 10, arbitrary: fc.constant({ caller: 'right' as const }) },
  );
}

function pathArgument(invalid: boolean): fc.Arbitrary<PathArgument> {
  const identifiers: Array<fc.WeightedArbitrary<PathArgument>> = [
    { weight: 6, arbitrary: fc.nat(50).map((pick) => ({ tenant: 'a' as const, pick })) },
    { weight: 3, arbitrary: fc.nat(50).map((pick) => ({ tenant: 'b' as const, pick })) },
    { weight: 1, arbitrary: fc.uuid().map((literal) => ({ literal })) },
  ];
  const bad: fc.WeightedArbitrary<PathArgument> = {
    weight: 3,
    arbitrary: fc
      .oneof(
        fc.constantFrom(...NOT_UUIDS),
        oddString().map((text) => encodeURIComponent(text.replace(/[\ud800-\udfff]/g, '\ufffd'))),
      )
      .map((literal) => ({ literal: literal === '' ? '%20' : literal })),
  };
  return invalid ? fc.oneof(...identifiers.slice(1), bad) : fc.oneof(...identifiers, bad);
}

function validQuery(
  operation: FuzzOperation,
  schemas: Schemas,
): fc.Arbitrary<Array<[string, string]>> {
  if (operation.queryParameters.length === 0) {
    return fc.constant([]);
  }
  const model = Object.fromEntries(
    operation.queryParameters.map((p) => [
      p.name,
      validValue(p.schema, schemas).map((value) =>
        (Array.isArray(value) ? (value as unknown[]) : [value]).map(queryText),
      ),
    ]),
  );
  return fc
    .record(model, {
      requiredKeys: operation.queryParameters.filter((p) => p.required).map((p) => p.name),
    })
    .map((values) =>
      Object.entries(values).flatMap(([name, list]) =>
        list.map((v): [string, string] => [name, v]),
      ),
    );
}

/** A query value as a client writes it: strings as they are, anything else as JSON. */
function queryText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function badQuery(operation: FuzzOperation): fc.Arbitrary<Array<[string, string]>> {
  const names = operation.queryParameters.map((p) => p.name);
  const value = fc.oneof(fc.constantFrom(...BAD_QUERY_VALUES), oddString());
  return fc
    .oneof(
      fc.tuple(fc.constantFrom(...UNKNOWN_KEYS, 'limit', 'offset', 'cursor', 'page'), value),
      ...(names.length ? [fc.tuple(fc.constantFrom(...names), value)] : []),
    )
    .chain((pair) =>
      fc.constantFrom<Array<[string, string]>>([pair], [pair, pair], [pair, [pair[0], '1']]),
    );
}

function bodyMutations(
  schema: JsonSchema,
  schemas: Schemas,
): Array<[string, fc.Arbitrary<FuzzBody>]> {
  const { properties, required } = objectShape(schema, schemas);
  const names = Object.keys(properties);
  const valid = validValue(schema, schemas);
  const isObject = names.length > 0 || resolve(schema, schemas).type === 'object';
  const withProperty = (
    pick: fc.Arbitrary<string>,
    value: (name: string) => fc.Arbitrary<unknown>,
  ): fc.Arbitrary<FuzzBody> =>
    fc
      .tuple(valid, pick)
      .chain(([base, name]) =>
        value(name).map((v) => ({ json: { ...(base as object), [name]: v } })),
      );
  const mutations: Array<[string, fc.Arbitrary<FuzzBody>]> = [
    ['wrong-type-root', wrongTypeValue(schema, schemas).map((json) => ({ json }))],
    [
      'unknown-field',
      withProperty(fc.constantFrom(...UNKNOWN_KEYS), () => fc.jsonValue({ maxDepth: 2 })),
    ],
    ['malformed-json', fc.constantFrom(...MALFORMED_JSON).map((raw) => ({ raw }))],
    ['huge-body', fc.integer({ min: 1_050_000, max: 1_300_000 }).map((huge) => ({ huge }))],
    [
      'deeply-nested',
      fc
        .tuple(fc.constantFrom(50, 500, 5_000, 50_000), fc.constantFrom(undefined, ...names))
        .map(([deep, under]) => ({ deep, under })),
    ],
  ];
  if (isObject && names.length > 0) {
    const name = fc.constantFrom(...names);
    mutations.push(
      ['wrong-type', withProperty(name, (n) => wrongTypeValue(properties[n], schemas))],
      ['odd-unicode', withProperty(name, () => oddString())],
      [
        'huge-field',
        withProperty(name, () =>
          fc.constantFrom(10_000, 200_000).map((length) => 'x'.repeat(length)),
        ),
      ],
      [
        'huge-array',
        withProperty(name, () => fc.constant(Array.from({ length: 20_000 }, (_, i) => i))),
      ],
    );
  }
  if (required.length > 0) {
    mutations.push([
      'missing-required',
      fc.tuple(valid, fc.constantFrom(...required)).map(([base, missing]) => {
        const copy = { ...(base as Record<string, unknown>) };
        delete copy[missing];
        return { json: copy };
      }),
    ]);
  }
  return mutations;
}

/**
 * Requests for one operation: from its documented schemas (valid) and from their violations,
 * as every caller kind (issue 18 § 3).
 */
export function caseArbitrary(
  operation: FuzzOperation,
  options: CaseOptions,
): fc.Arbitrary<FuzzCase> {
  const { schemas } = options;
  const names = operation.pathParameters.map((p) => p.name);
  const path = (invalid: boolean): fc.Arbitrary<Record<string, PathArgument>> =>
    fc.record(Object.fromEntries(names.map((name) => [name, pathArgument(invalid)])));
  const goodPath = fc.record(
    Object.fromEntries(
      names.map((name) => [name, fc.nat(50).map((pick): PathArgument => ({ tenant: 'a', pick }))]),
    ),
  );
  const mediaType = operation.body?.mediaType;
  const validBody: fc.Arbitrary<FuzzBody | undefined> = operation.body
    ? validValue(operation.body.schema, schemas).map((json) => ({ json }))
    : fc.constant(undefined);
  type Shape = Pick<FuzzCase, 'mutation' | 'path' | 'query' | 'contentType' | 'body'>;
  const shape = (
    mutation: string,
    parts: {
      path?: fc.Arbitrary<Record<string, PathArgument>>;
      query?: fc.Arbitrary<Array<[string, string]>>;
      body?: fc.Arbitrary<FuzzBody | undefined>;
      contentType?: fc.Arbitrary<string | undefined>;
    },
  ): fc.Arbitrary<Shape> =>
    fc.record({
      mutation: fc.constant(mutation),
      path: parts.path ?? goodPath,
      query: parts.query ?? validQuery(operation, schemas),
      body: parts.body ?? validBody,
      contentType: parts.contentType ?? fc.constant(mediaType),
    });
  const shapes: Array<fc.WeightedArbitrary<Shape>> = [];
  if (!options.invalidOnly) {
    shapes.push({ weight: 8, arbitrary: shape('valid', { path: path(false) }) });
  }
  if (names.length > 0) {
    shapes.push({ weight: 3, arbitrary: shape('bad-path', { path: path(true) }) });
  }
  shapes.push({ weight: 2, arbitrary: shape('bad-query', { query: badQuery(operation) }) });
  if (operation.body) {
    for (const [mutation, body] of bodyMutations(operation.body.schema, schemas)) {
      shapes.push({ weight: 2, arbitrary: shape(mutation, { body }) });
    }
    shapes.push({
      weight: 2,
      arbitrary: shape('wrong-content-type', {
        contentType: fc.constantFrom<string | undefined>(undefined, ...WRONG_CONTENT_TYPES),
      }),
    });
  } else if (operation.method !== 'GET') {
    // A body nobody asked for, of any kind.
    shapes.push({
      weight: 2,
      arbitrary: shape('unexpected-body', {
        body: fc.oneof(
          fc.jsonValue({ maxDepth: 2 }).map((json): FuzzBody => ({ json })),
          fc.constantFrom(...MALFORMED_JSON).map((raw): FuzzBody => ({ raw })),
        ),
        contentType: fc.constantFrom('application/json', ...WRONG_CONTENT_TYPES),
      }),
    });
  }
  return fc
    .tuple(callerArbitrary(), fc.oneof(...shapes))
    .map(([caller, parts]) => ({ operation: operation.key, ...caller, ...parts }));
}

/** The text of a body as sent. */
export function payloadOf(
  body: FuzzBody | undefined,
  mediaType: string | undefined,
): string | undefined {
  if (body === undefined) {
    return undefined;
  }
  if ('raw' in body) {
    return body.raw;
  }
  if ('huge' in body) {
    return `{"name":"${'x'.repeat(body.huge)}"}`;
  }
  if ('deep' in body) {
    const nested = `${'{"a":'.repeat(body.deep)}1${'}'.repeat(body.deep)}`;
    return body.under === undefined ? nested : `{"${body.under}":${nested}}`;
  }
  if (
    mediaType === 'application/x-www-form-urlencoded' &&
    body.json &&
    typeof body.json === 'object'
  ) {
    return new URLSearchParams(
      Object.entries(body.json as Record<string, unknown>).map(([k, v]): [string, string] => [
        k,
        typeof v === 'string' ? v : JSON.stringify(v),
      ]),
    ).toString();
  }
  return JSON.stringify(body.json);
}
