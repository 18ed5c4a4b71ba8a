import { builtinRegistry } from '../../builtins/registry';
import '../../builtins/all';
import { formatDetail, RegoCompileError } from '../../errors';
import { compilePolicy } from '../../policy';
import { compileProgram } from '../compiler';
import { schemaType, SchemaError } from './schema';
import { arrayOf, objectOf, or, T_ANY, T_BOOLEAN, T_NUMBER, T_STRING, Type } from './types';
import { typeText } from './type-text';

// Transcribed from OPA's v1/ast/check_test.go (TestCheckAnnotationRules, TestCheckAnnotationInference,
// TestInlinedSchemaAnnotationIgnoredByCache) with the modules in Rego v1 syntax (`if`, `contains`,
// `:=` defaults); a partial set rule whose element OPA's bare type check left unbound (`deny[msg]`)
// binds it here, since compiling also checks safety.

const inputSchema = {
  $schema: 'http://json-schema.org/draft-07/schema',
  $id: 'http://example.com/example.json',
  type: 'object',
  required: ['user', 'operation'],
  properties: {
    user: { $id: '#/properties/user', type: 'string' },
    operation: { $id: '#/properties/operation', type: 'string' },
  },
  additionalProperties: true,
};

const inputSchema2 = {
  $schema: 'http://json-schema.org/draft-07/schema',
  type: 'object',
  required: ['operation'],
  properties: { operation: { type: 'string' } },
  additionalProperties: true,
};

const dataSchema = {
  $schema: 'http://json-schema.org/draft-07/schema',
  type: 'object',
  required: ['alice', 'bob'],
  properties: {
    alice: { type: 'array', additionalItems: false, items: { type: 'string' } },
    bob: { type: 'array', additionalItems: false, items: { type: 'string' } },
  },
  additionalProperties: true,
};

const SCHEMAS = {
  'schema.number': { type: 'number' },
  'schema.string': { type: 'string' },
  'schema.input': inputSchema,
  'schema["whocan-input-schema"]': inputSchema2,
  'schema["acl-schema"]': dataSchema,
};

/** Compile errors as OPA prints them (`file:row: code: message`), none when it compiles. */
/** `schemas` null: no schema set at all (OPA without `--schema`). */
function errorsOf(modules: string[], schemas: Record<string, unknown> | null = SCHEMAS): string[] {
  try {
    compileProgram(
      modules.map((source, i) => ({ file: `test${i + 1}.rego`, source })),
      builtinRegistry(),
      { schemas: schemas ?? undefined },
    );
    return [];
  } catch (e) {
    if (e instanceof RegoCompileError) {
      return e.errors.map(formatDetail);
    }
    throw e;
  }
}

const HEAD = `package policy

import data.acl
import input

default allow := false
`;

const rule = (schemas: string[], body: string, head = 'allow if'): string =>
  `${HEAD}
# METADATA
# scope: rule
# schemas:
${schemas.map((s) => `#   - ${s}`).join('\n')}
${head} {
${body}
}`;

/** A METADATA block of one schema declaration (four lines, as in OPA's test modules). */
const block = (scope: string, decl: string): string =>
  `# METADATA\n# scope: ${scope}\n# schemas:\n# - ${decl}`;

const ACCESS = `  access = data.acl[input.user]
  access[_] == input.operation`;

describe('schema annotations', () => {
  describe('TestCheckAnnotationRules', () => {
    const cases: [string, string[], string][] = [
      [
        'data and input annotations',
        [rule(['input: schema["input"]', 'data.acl: schema["acl-schema"]'], ACCESS)],
        '',
      ],
      [
        'correct data override',
        [
          rule(
            [
              'input: schema["input"]',
              'input: schema["whocan-input-schema"]',
              'data.acl: schema["acl-schema"]',
            ],
            '  access = acl[user]\n  access[_] == input.operation',
            'whocan contains user if',
          ),
        ],
        '',
      ],
      [
        'incorrect data override',
        [
          rule(
            [
              'input: schema["input"]',
              'input: schema["whocan-input-schema"]',
              'data.acl: schema["acl-schema"]',
            ],
            ACCESS,
          ),
        ],
        'undefined ref: input.user',
      ],
      [
        'missing schema',
        [
          rule(
            ['input: schema.missing'],
            '  access = acl[user]\n  access[_] == input.operation',
            'whocan contains user if',
          ),
        ],
        'undefined schema: schema.missing',
      ],
      [
        'overriding ref with length greater than one and not existing',
        [
          rule(
            [
              'input: schema["input"]',
              'data.acl: schema["acl-schema"]',
              'input.apple.orange: schema["input"]',
            ],
            `${ACCESS}\n  input.apple.banana`,
          ),
        ],
        'undefined ref: input.apple.banana',
      ],
      [
        'overriding ref with length greater than one and existing prefix',
        [
          rule(
            [
              'input: schema["input"]',
              'data.acl: schema["acl-schema"]',
              'input.apple.orange: schema["input"]',
              'input.apple.orange.banana: schema["acl-schema"]',
            ],
            `${ACCESS}\n  input.apple.orange.banana`,
          ),
        ],
        '',
      ],
      [
        'overriding ref with length greater than one and existing prefix with type error',
        [
          rule(
            [
              'input: schema["input"]',
              'input.apple.orange: schema["input"]',
              'input.apple.orange.banana: schema["acl-schema"]',
            ],
            `${ACCESS}\n  input.apple.orange.banana.fruit`,
          ),
        ],
        'undefined ref: input.apple.orange.banana.fruit',
      ],
      [
        'overriding ref with length greater than one and existing ref',
        [
          rule(
            [
              'input: schema["input"]',
              'input.apple.orange: schema["input"]',
              'input.apple.orange: schema["acl-schema"]',
            ],
            `${ACCESS}\n  input.apple.orange.bob\n  input.apple.orange.user`,
          ),
        ],
        'undefined ref: input.apple.orange.user',
      ],
      [
        'overriding ref of size one',
        [
          rule(
            ['input: schema["input"]', 'input: schema["acl-schema"]'],
            '  access = data.acl[input.user]',
          ),
        ],
        'undefined ref: input.user',
      ],
      [
        'overriding annotation written with brackets',
        [
          rule(
            ['input: schema["input"]', 'input.apple["orange"]: schema["input"]'],
            '  access = data.acl[input.user]\n  input.apple.orange.fruit',
          ),
        ],
        'undefined ref: input.apple.orange.fruit',
      ],
      [
        'overriding strict',
        [
          rule(
            ['input.request.object: schema["acl-schema"]'],
            `  input.request.kind.kind == "Pod"
  image := input.request.object.spec.typo.containers[_].image
  not startswith(image, "hooli.com/")
  msg := image`,
            'deny contains msg if',
          ),
        ],
        'undefined ref: input.request.object.spec.typo',
      ],
      [
        'data annotation but no input schema',
        [rule(['data.acl: schema["acl-schema"]'], `${ACCESS}\n  input.apple.orange.banana`)],
        '',
      ],
      [
        'data schema annotation does not overly restrict data expression',
        [
          rule(
            ['data.acl: schema["acl-schema"]'],
            `  input.request.kind.kinds == "Pod"
  image := input.request.object.spec.containers[_].image
  not startswith(image, "hooli.com/")
  data.blah
  msg := image`,
            'deny contains msg if',
          ),
        ],
        '',
      ],
      [
        'correct defer annotation on another rule has no effect base case',
        [
          `${rule(['input: schema["acl-schema"]'], '  input.alice')}

deny contains msg if {
  input.foo
  msg := 1
}`,
        ],
        '',
      ],
      [
        'correct defer annotation on another rule has no effect',
        [
          `${rule(
            ['input: schema["input"]', 'input.apple.banana: schema["input"]'],
            '  input.apple.banana\n  msg := 1',
            'deny contains msg if',
          )}

deny1 contains msg if {
  input.apple.banana.foo
  msg := 1
}`,
        ],
        '',
      ],
      [
        'overriding ref with data prefix',
        [
          rule(
            ['data.acl: schema["acl-schema"]', 'data.acl.foo: schema["input"]'],
            `${ACCESS}\n  input.apple.orange.banana\n  data.acl.foo.blah`,
          ),
        ],
        'data.acl.foo.blah',
      ],
      [
        'data annotation type error',
        [
          rule(
            ['input: schema["input"]', 'data.acl: schema["acl-schema"]'],
            `${ACCESS}\n  data.acl.foo`,
          ),
        ],
        'data.acl.foo',
      ],
      [
        'more than one rule with metadata',
        [
          `${rule(['input: schema["input"]', 'data.acl: schema["acl-schema"]'], ACCESS)}

# METADATA for whocan rule
# scope: rule
# schemas:
#   - input: schema["whocan-input-schema"]
#   - data.acl: schema["acl-schema"]
whocan contains user if {
  access = acl[user]
  access[_] == input.operation
}`,
        ],
        '',
      ],
      [
        'more than one rule with metadata with type error',
        [
          `${rule(
            ['input: schema["input"]', 'data.acl: schema["acl-schema"]'],
            `${ACCESS}\n  data.foo\n  data.acl.foo`,
          )}

# METADATA for whocan rule
# scope: rule
# schemas:
#   - input: schema["whocan-input-schema"]
#   - data.acl: schema["acl-schema"]
whocan contains user if {
  access = acl[user]
  access[_] == input.operation.foo
}`,
        ],
        'undefined ref',
      ],
      [
        'document scope',
        [
          `package test
${block('document', 'input.foo: schema.number')}
p if { input.foo = 7 }

p if { input.foo = [] }`,
        ],
        'test1.rego:8: rego_type_error: match error',
      ],
      [
        'rule scope overrides document scope',
        [
          `package test

${block('document', 'input.foo: schema.number')}
p if { input.foo = 7 }

${block('rule', 'input.foo: schema.string')}
p if { input.foo = "str" }`,
        ],
        '',
      ],
      [
        'rule scope merges with document scope',
        [
          `package test

${block('document', 'input.bar: schema.number')}
p if { input.bar = 7 }

${block('rule', 'input.foo: schema.string')}
p if {
\tinput.foo = "str"
\tinput.bar = "str"
}`,
        ],
        'test1.rego:15: rego_type_error: match error',
      ],
      [
        'document scope conflict',
        [
          `package test

${block('document', 'input.foo: schema.number')}
p if { input.foo = 7 }

${block('document', 'input.foo: schema.string')}
p if { input.foo = "str" }`,
        ],
        'test1.rego:9: rego_type_error: document annotation redeclared: test1.rego:3',
      ],
      [
        'package scope in other module',
        [
          `${block('package', 'input.foo: schema.number')}
package test`,
          `package test

p if { input.foo = 7 }`,
        ],
        '',
      ],
      [
        'package scope in other module type conflict',
        [
          `${block('package', 'input.foo: schema.string')}
package test`,
          `package test

p if { input.foo = 7 }`,
        ],
        'test2.rego:3: rego_type_error: match error',
      ],
      [
        'package scope conflict',
        [
          `${block('package', 'input.foo: schema.string')}
package test`,
          `${block('package', 'input.foo: schema.number')}
package test

p if { input.foo = 7 }`,
        ],
        'test2.rego:1: rego_type_error: package annotation redeclared: test1.rego:1',
      ],
      [
        'subpackages scope',
        [
          `${block('subpackages', 'input: schema.number')}
package test

p if { input = "str" }`,
        ],
        'test1.rego:7: rego_type_error: match error',
      ],
      [
        'document scope overrides subpackages scope',
        [
          `${block('subpackages', 'input: schema.number')}
package test

${block('document', 'input: schema.string')}
p if { input = "str" }`,
        ],
        '',
      ],
      [
        'document scope overrides subpackages scope and finds error',
        [
          `${block('subpackages', 'input: schema.string')}
package test

${block('rule', 'input: schema.number')}
p if { input = "str" }`,
        ],
        'test1.rego:11: rego_type_error: match error',
      ],
      [
        'package scope',
        [
          `${block('package', 'input: schema.string')}
package test

p if { input = 7 }`,
        ],
        'test1.rego:7: rego_type_error: match error',
      ],
      [
        'rule scope overrides package scope',
        [
          `${block('package', 'input: schema.string')}
package test

${block('rule', 'input: schema.number')}
p if { input = 7 }`,
        ],
        '',
      ],
      [
        'inline definition',
        [
          `package test

${block('rule', 'input: {"type": "string"}')}
p if { input = 7 }`,
        ],
        'test1.rego:7: rego_type_error: match error',
      ],
      [
        'document scope is unordered',
        [
          `package test

p if { input = 7 }

${block('document', 'input: schema.string')}
p if { input = "foo" }`,
        ],
        'test1.rego:3: rego_type_error: match error',
      ],
    ];

    it.each(cases)('should check %s as OPA does', (_note, modules, err) => {
      const errors = errorsOf(modules);
      if (err === '') {
        expect(errors).toEqual([]);
      } else {
        expect(errors.length).toBeGreaterThan(0);
        for (const e of errors) {
          expect(e).toContain(err);
        }
      }
    });
  });

  it('should give a rule the type its input schema gives its value (TestCheckAnnotationInference)', () => {
    const module = `package test

${block('rule', 'input: schema.foo')}
p := x if { input = x }

q := p

r if { q == "str" }`;
    expect(errorsOf([module], { 'schema.foo': { type: 'number' } })).toEqual([
      'test1.rego:11: rego_type_error: match error\n\tleft  : number\n\tright : string',
    ]);
  });

  it('should not take one inline schema for another (TestInlinedSchemaAnnotationIgnoredByCache)', () => {
    const policy = `package test

# METADATA
# schemas:
#   - input.x: {"type": "boolean"}
p if {
\tinput.x == 42
}

# METADATA
# schemas:
#   - input.x: {"type": "object"}
q if {
\tinput.x == "foo"
}`;
    expect(errorsOf([policy], null)).toEqual([
      'test1.rego:7: rego_type_error: match error\n\tleft  : boolean\n\tright : number',
      'test1.rego:14: rego_type_error: match error\n\tleft  : object[any: any]\n\tright : string',
    ]);
  });

  it("should show schemas in rego.metadata.rule() as OPA's annotation object does", () => {
    const policy = compilePolicy({
      'p.rego': `package p

# METADATA
# schemas:
#   - input.x: {"type": "string"}
#   - data.acl: schema["acl-schema"]
x := rego.metadata.rule()
`,
    });
    expect(policy.evaluateRule('data.p.x')).toEqual({
      scope: 'rule',
      schemas: [
        { path: ['input', 'x'], definition: { type: 'string' } },
        { path: ['data', 'acl'], schema: ['schema', 'acl-schema'] },
      ],
    });
  });

  it('should attach every METADATA block before a rule to it, as OPA does', () => {
    const module = `package test

${block('document', 'input.foo: schema.number')}

${block('rule', 'input.bar: schema.string')}
p if {
\tinput.foo = "x"
\tinput.bar = 7
}`;
    expect(errorsOf([module])).toEqual([
      'test1.rego:13: rego_type_error: match error\n\tleft  : number\n\tright : string',
      'test1.rego:14: rego_type_error: match error\n\tleft  : string\n\tright : number',
    ]);
    const policy = compilePolicy({
      'p.rego':
        'package p\n\n# METADATA\n# title: far\n\n# METADATA\n# title: near\nx := rego.metadata.rule()\n',
    });
    expect(policy.evaluateRule('data.p.x')).toEqual({ scope: 'rule', title: 'near' });
  });

  it('should refuse an annotation scope on the wrong statement as OPA does', () => {
    expect(errorsOf(['# METADATA\n# scope: rule\npackage test\n\np := 1'])).toEqual([
      "test1.rego:1: rego_parse_error: annotation scope 'rule' must be applied to rule (have package)",
    ]);
    expect(errorsOf(['package test\n\n# METADATA\n# scope: subpackages\np := 1'])).toEqual([
      "test1.rego:3: rego_parse_error: annotation scope 'subpackages' must be applied to package (have rule)",
    ]);
    expect(errorsOf(['package test\n\n# METADATA\n# scope: everywhere\np := 1'])).toEqual([
      "test1.rego:3: rego_parse_error: invalid annotation scope 'everywhere'. Use one of 'rule', 'document', 'package', or 'subpackages'",
    ]);
  });

  it("should refuse a schema reference outside the schema set as OPA's metadata parser does", () => {
    expect(errorsOf([rule(['input: data.x'], '  input.x == 1')])).toEqual([
      'test1.rego:8: rego_parse_error: invalid schema reference',
    ]);
    expect(errorsOf([rule(['input: 7'], '  input.x == 1')])).toEqual([
      'test1.rego:8: rego_parse_error: invalid schema declaration for path "input"',
    ]);
  });

  it('should ignore references to a schema set when the caller gives none, as OPA without --schema', () => {
    expect(errorsOf([rule(['input: schema.missing'], '  input.x == 1')], null)).toEqual([]);
  });

  it('should type input in rules and queries with the schema at the root of the set (--schema FILE)', () => {
    expect(errorsOf(['package test\n\np if { input.user == 1 }'], { schema: inputSchema })).toEqual(
      ['test1.rego:3: rego_type_error: match error\n\tleft  : string\n\tright : number'],
    );
    const policy = compilePolicy(
      { 'p.rego': 'package p\n\nq := 1' },
      { schemas: { schema: inputSchema } },
    );
    expect(() => policy.query('x := input.usr')).toThrow(/undefined ref: input.usr/);
    expect(policy.query('x := input.user')).toEqual([]);
    expect(errorsOf(['package test\n\np if { input.usr }'], { schema: inputSchema })).toEqual([
      'test1.rego:3: rego_type_error: undefined ref: input.usr\n\tinput.usr\n\t      ^\n\t      have: "usr"\n\t      want (one of): ["operation" "user"]',
    ]);
  });
});

// Transcribed from OPA's v1/ast/schema_test.go (the schema constants there, as objects).
describe(schemaType.name, () => {
  const S = T_STRING;
  const N = T_NUMBER;
  const obj = (props: [string, Type][], dynamic?: { key: Type; value: Type }): Type =>
    objectOf(
      props.map(([key, value]) => ({ key, value })),
      dynamic,
    );
  const strings = (...keys: string[]): Type => obj(keys.map((k) => [k, S]));
  const props = (...keys: string[]): Record<string, unknown> =>
    Object.fromEntries(keys.map((k) => [k, { type: 'string' }]));
  const expectType = (schema: unknown, want: Type): void =>
    expect(typeText(schemaType(schema))).toBe(typeText(want));
  const expectMergeError = (schema: unknown): void =>
    expect(() => schemaType(schema)).toThrow(/unable to merge these schemas/);

  it('should convert objects, arrays and scalars (TestParseSchemaObject and friends)', () => {
    const objectSchema = {
      $id: 'http://example.com/example.json',
      type: 'object',
      properties: {
        foo: { type: 'string' },
        b: {
          type: 'array',
          additionalItems: false,
          items: {
            type: 'object',
            properties: {
              a: { type: 'integer' },
              b: { type: 'array', items: { type: 'integer' } },
              c: { type: 'null' },
            },
            additionalProperties: false,
          },
        },
      },
      additionalProperties: false,
    };
    expectType(
      objectSchema,
      obj([
        [
          'b',
          arrayOf(
            [],
            obj([
              ['a', N],
              ['b', arrayOf([], N)],
              ['c', T_ANY],
            ]),
          ),
        ],
        ['foo', S],
      ]),
    );
    // TestParseSchemaUntypedField, TestParseSchemaNoChildren, TestParseSchemaArrayNoItems,
    // TestParseSchemaBooleanField, TestParseSchemaBasics.
    expectType(
      { type: 'object', properties: { foo: { $id: '#/properties/foo' } } },
      obj([['foo', T_ANY]]),
    );
    expectType(
      { type: 'object', additionalProperties: true },
      obj([], { key: T_ANY, value: T_ANY }),
    );
    expectType(
      { type: 'object', properties: { b: { type: 'array', additionalItems: true } } },
      obj([['b', arrayOf([], T_ANY)]]),
    );
    expectType({ type: 'object', properties: { a: { type: 'boolean' } } }, obj([['a', T_BOOLEAN]]));
    expectType({ type: 'number' }, N);
    expectType(
      {
        type: 'array',
        items: {
          type: 'object',
          properties: { id: { type: 'string' }, value: { type: 'number' } },
        },
      },
      arrayOf(
        [],
        obj([
          ['id', S],
          ['value', N],
        ]),
      ),
    );
    expectType({ type: 'array', items: [{ type: 'string' }, { type: 'number' }] }, arrayOf([S, N]));
    expectType({ type: ['string', 'null'] }, S);
  });

  it('should join anyOf branches, with the core object when it has properties (TestAnyOfSchema)', () => {
    const extendCore = or(
      obj([
        ['County', S],
        ['PostCode', N],
      ]),
      or(strings('AddressLine'), strings('State', 'ZipCode')),
    );
    expectType(
      {
        type: 'object',
        properties: props('AddressLine'),
        anyOf: [
          { type: 'object', properties: props('State', 'ZipCode') },
          {
            type: 'object',
            properties: { County: { type: 'string' }, PostCode: { type: 'integer' } },
          },
        ],
      },
      extendCore as Type,
    );
    // "anyOf object missing type": a branch without a type is an object for its properties.
    expectType(
      {
        type: 'object',
        properties: props('AddressLine'),
        anyOf: [
          { type: 'object', properties: props('State', 'ZipCode') },
          { properties: { County: { type: 'string' }, PostCode: { type: 'integer' } } },
        ],
      },
      extendCore as Type,
    );
    expectType(
      {
        type: 'object',
        properties: {
          AddressLine: { type: 'string' },
          RandomInfo: {
            anyOf: [
              { type: 'object', properties: props('accessMe') },
              { type: 'number', minimum: 0 },
            ],
          },
        },
      },
      obj([
        ['AddressLine', S],
        ['RandomInfo', or(strings('accessMe'), N) as Type],
      ]),
    );
    expectType(
      {
        type: 'object',
        properties: {
          familyMembers: {
            type: 'array',
            items: {
              anyOf: [
                {
                  type: 'object',
                  properties: { age: { type: 'integer' }, name: { type: 'string' } },
                },
                { type: 'object', properties: props('personality', 'nickname') },
              ],
            },
          },
        },
      },
      obj([
        [
          'familyMembers',
          arrayOf(
            [],
            or(
              obj([
                ['age', N],
                ['name', S],
              ]),
              strings('personality', 'nickname'),
            ),
          ),
        ],
      ]),
    );
    expectType(
      {
        type: 'array',
        anyOf: [
          { items: [{ type: 'number' }, { type: 'string' }] },
          { items: [{ type: 'integer' }] },
        ],
      },
      or(arrayOf([N, S]), arrayOf([N])) as Type,
    );
  });

  it('should merge allOf members and refuse members that do not merge (TestAllOfSchemas)', () => {
    expectType(
      {
        type: 'object',
        properties: props('AddressLine1', 'AddressLine2', 'City'),
        allOf: [
          { type: 'object', properties: props('State', 'ZipCode') },
          { type: 'object', properties: props('County', 'PostCode') },
        ],
      },
      strings('AddressLine1', 'AddressLine2', 'City', 'State', 'ZipCode', 'County', 'PostCode'),
    );
    const intItems = { type: 'array', items: { type: 'integer' } };
    expectType({ ...intItems, allOf: [intItems, intItems] }, arrayOf([], N));
    expectType(
      {
        allOf: [
          { type: 'object', properties: props('State', 'ZipCode') },
          { type: 'object', properties: props('County', 'PostCode') },
        ],
      },
      strings('State', 'ZipCode', 'County', 'PostCode'),
    );
    expectType({ allof: [] }, T_ANY);
    expectType(
      {
        type: 'object',
        properties: props('AddressLine'),
        allOf: [
          { type: 'object', properties: props('State', 'ZipCode') },
          { properties: { County: { type: 'string' }, PostCode: { type: 'integer' } } },
        ],
      },
      obj([
        ['AddressLine', S],
        ['State', S],
        ['ZipCode', S],
        ['County', S],
        ['PostCode', N],
      ]),
    );
    expectType(
      {
        type: 'array',
        allOf: [
          { items: [{ type: 'integer' }, { type: 'integer' }] },
          { items: [{ type: 'integer' }] },
        ],
      },
      arrayOf([N, N]),
    );
    const difTypes = { type: 'array', items: [{ type: 'string' }, { type: 'integer' }] };
    expectType({ type: 'array', allOf: [difTypes, difTypes] }, arrayOf([S, N]));
    expectType(
      {
        type: 'object',
        properties: {
          AddressLine: { type: 'string' },
          RandomInfo: {
            allOf: [
              { type: 'object', properties: props('accessMe') },
              { type: 'object', properties: props('accessYou') },
            ],
          },
        },
      },
      obj([
        ['RandomInfo', strings('accessMe', 'accessYou')],
        ['AddressLine', S],
      ]),
    );
    for (const t of ['string', 'integer', 'boolean']) {
      expectType(
        { type: t, allOf: [{ type: t }, { type: t }] },
        t === 'integer' ? N : t === 'string' ? S : T_BOOLEAN,
      );
    }
    const arrayOfInts = { type: 'array', items: { type: 'array', items: { type: 'integer' } } };
    expectMergeError({ ...arrayOfInts, allOf: [arrayOfInts, intItems] });
    expectMergeError({
      type: 'object',
      properties: props('City'),
      allOf: [{ type: 'object', properties: props('State') }, intItems],
    });
    expectMergeError({
      type: 'array',
      allOf: [difTypes, { type: 'array', items: [{ type: 'boolean' }, { type: 'integer' }] }],
    });
    expectMergeError({ type: 'string', allOf: [{ type: 'string' }, { type: 'integer' }] });
  });

  it('should resolve $ref within the document, and refuse remote ones (TestSetTypesWithSchemaRef)', () => {
    const schema = {
      definitions: { name: { type: 'string' } },
      type: 'object',
      properties: { first: { $ref: '#/definitions/name' } },
    };
    expectType(schema, obj([['first', S]]));
    expect(() =>
      schemaType({
        type: 'object',
        properties: {
          metadata: { $ref: 'https://example.com/_definitions.json#/definitions/meta' },
        },
      }),
    ).toThrow(
      new SchemaError(
        'unable to compile the schema: remote reference loading disabled: https://example.com/_definitions.json',
      ),
    );
  });

  it('should convert a recursive definition to the object it refers to (TestRecursiveSchema)', () => {
    const t = schemaType({
      definitions: {
        node: {
          type: 'object',
          properties: { name: { type: 'string' }, next: { $ref: '#/definitions/node' } },
        },
      },
      $ref: '#/definitions/node',
    });
    expect(t.kind).toBe('object');
    const next = t.kind === 'object' ? t.static.find((p) => p.key === 'next')?.value : undefined;
    expect(next?.kind === 'object' && next.static.map((p) => p.key)).toEqual(['name', 'next']);
  });
});
