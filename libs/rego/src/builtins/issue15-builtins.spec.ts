import { generateKeyPairSync } from 'node:crypto';
import { RegoCompileError } from '../errors';
import { compilePolicy } from '../policy';

function value(source: string, input?: unknown): unknown {
  return compilePolicy({ 'p.rego': source }).evaluateRule('data.p.x', {
    input,
    strictBuiltinErrors: true,
  });
}

describe('built-ins added for issue 15', () => {
  it('should sign with a JWK and verify with the public key, and reject another key', () => {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey;
    const jwk = JSON.stringify(privateKey.export({ format: 'jwk' }));
    const pem = publicKey.export({ format: 'pem', type: 'spki' }).toString();
    const source = `package p
token := io.jwt.encode_sign({"alg": "ES256"}, {"iss": "me", "exp": 4102444800}, json.unmarshal(input.jwk))
x := [io.jwt.verify_es256(token, input.pem), io.jwt.verify_es256(token, input.other), io.jwt.decode_verify(token, {"cert": input.pem, "iss": "me"})[0]]
`;
    expect(
      value(source, {
        jwk,
        pem,
        other: other.export({ format: 'pem', type: 'spki' }).toString(),
      }),
    ).toEqual([true, false, true]);
  });

  it('should refuse a network built-in at compile time with the reason, unless mocked', () => {
    expect(() =>
      value('package p\nx := http.send({"method": "get", "url": "http://a"})\n'),
    ).toThrow(/unsupported built-in function http.send: needs the network/);
    expect(
      value(
        'package p\nmock(_) := {"status_code": 200}\nx := y if {\n  y := http.send({}).status_code with http.send as mock\n}\n',
      ),
    ).toBe(200);
  });

  it('should give graphql ASTs in the shape OPA gives them', () => {
    expect(value('package p\nx := graphql.parse_query("{hero {name}}")\n')).toEqual({
      Operations: [
        {
          Name: '',
          Operation: 'query',
          SelectionSet: [
            { Alias: 'hero', Name: 'hero', SelectionSet: [{ Alias: 'name', Name: 'name' }] },
          ],
        },
      ],
    });
    expect(value('package p\nx := graphql.schema_is_valid("type Query { a: Int }")\n')).toBe(true);
  });

  it('should report a document that does not match a JSON schema as gojsonschema does', () => {
    expect(
      value(
        'package p\nx := json.match_schema({"id": "a"}, {"properties": {"id": {"type": "integer"}}})\n',
      ),
    ).toEqual([
      false,
      [
        {
          desc: 'Invalid type. Expected: integer, given: string',
          error: 'id: Invalid type. Expected: integer, given: string',
          field: 'id',
          type: 'invalid_type',
        },
      ],
    ]);
  });

  it('should render a Go template with range, if and a missing key', () => {
    expect(
      value(
        'package p\nx := strings.render_template(`{{range $i, $n := .names}}{{if $i}},{{end}}hi {{$n}}{{end}} {{.nope}}`, {"names": ["a", "b"]})\n',
      ),
    ).toBe('hi a,hi b <undefined>');
  });

  it('should replace rego.metadata.rule() by the rule annotations', () => {
    expect(
      value(
        'package p\n\n# METADATA\n# title: T\n# authors:\n# - Jane <j@x.org>\nx := rego.metadata.rule()\n',
      ),
    ).toEqual({ authors: [{ email: 'j@x.org', name: 'Jane' }], scope: 'rule', title: 'T' });
  });

  it('should match CIDRs of collections and keep time results within int64', () => {
    expect(
      value(
        'package p\nx := net.cidr_contains_matches({"a": "10.0.0.0/8"}, ["10.1.2.3", "11.0.0.1"])\n',
      ),
    ).toEqual([['a', 0]]);
    expect(() => value('package p\nx := time.add_date(0, 2262, 1, 1)\n')).toThrow(
      /time outside of valid range/,
    );
  });

  it('should reject a non-string operand of a new built-in at compile time', () => {
    expect(() => value('package p\nx := io.jwt.verify_hs256(1, "k")\n')).toThrow(RegoCompileError);
  });
});
