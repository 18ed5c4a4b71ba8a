import { RegoEvalError } from '../errors';
import { compilePolicy } from '../policy';

function parsed(module: string): unknown {
  return compilePolicy({
    'p.rego': 'package p\nx := rego.parse_module("m.rego", input.m)',
  }).evaluateRule('data.p.x', { input: { m: module }, strictBuiltinErrors: true });
}

describe('rego.parse_module', () => {
  it('should answer the package, imports and rules in the shape of OPA AST JSON', () => {
    const ast = parsed('package foo.bar\n\nimport data.a as b\n\np if { b = true }\n');
    expect(ast).toEqual({
      package: {
        path: [
          { type: 'var', value: 'data' },
          { type: 'string', value: 'foo' },
          { type: 'string', value: 'bar' },
        ],
      },
      imports: [
        {
          path: {
            type: 'ref',
            value: [
              { type: 'var', value: 'data' },
              { type: 'string', value: 'a' },
            ],
          },
          alias: 'b',
        },
      ],
      rules: [
        {
          head: {
            name: 'p',
            ref: [{ type: 'var', value: 'p' }],
            value: { type: 'boolean', value: true },
          },
          body: [
            {
              index: 0,
              terms: [
                { type: 'ref', value: [{ type: 'var', value: 'eq' }] },
                { type: 'var', value: 'b' },
                { type: 'boolean', value: true },
              ],
            },
          ],
        },
      ],
    });
  });

  it('should encode calls, negation, some-in, default rules and partial sets', () => {
    const ast = parsed(
      'package q\ndefault d := 1\ns contains x if { some x in [1, _]; not x > 1 }\n',
    ) as { rules: unknown[] };
    expect(ast.rules[0]).toEqual({
      default: true,
      head: {
        name: 'd',
        ref: [{ type: 'var', value: 'd' }],
        value: { type: 'number', value: 1 },
        assign: true,
      },
      body: [{ index: 0, terms: { type: 'boolean', value: true } }],
    });
    expect(ast.rules[1]).toMatchObject({
      head: { name: 's', key: { type: 'var', value: 'x' } },
      body: [
        {
          index: 0,
          terms: {
            symbols: [
              {
                type: 'call',
                value: [
                  {
                    type: 'ref',
                    value: [
                      { type: 'var', value: 'internal' },
                      { type: 'string', value: 'member_2' },
                    ],
                  },
                  { type: 'var', value: 'x' },
                  {
                    type: 'array',
                    value: [
                      { type: 'number', value: 1 },
                      { type: 'var', value: '$0' },
                    ],
                  },
                ],
              },
            ],
          },
        },
        { index: 1, negated: true },
      ],
    });
  });

  it('should fail with the parser error as OPA reports it', () => {
    expect(() => parsed('package foo.')).toThrow(RegoEvalError);
    expect(() => parsed('package foo.')).toThrow(
      '1 error occurred: m.rego:1: rego_parse_error: unexpected eof token: expected ident',
    );
  });
});
