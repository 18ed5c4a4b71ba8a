import { SchemaValidator } from './schema-validator';

describe('SchemaValidator (GR20)', () => {
  const sut = new SchemaValidator();
  const amount = {
    type: 'object',
    properties: { amount: { type: 'number', minimum: 0 }, currency: { enum: ['EUR', 'USD'] } },
    required: ['amount'],
    additionalProperties: false,
  };

  it('should accept a conforming value and list every violation of another, without its values', () => {
    expect(sut.check(amount, { amount: 3, currency: 'EUR' })).toEqual({ valid: true, errors: [] });

    const result = sut.check(amount, { amount: -1, currency: 'GBP-secret', extra: true });

    expect(result.valid).toBe(false);
    expect(result.errors.map((e) => [e.path, e.keyword])).toEqual(
      expect.arrayContaining([
        ['/amount', 'minimum'],
        ['/currency', 'enum'],
        ['', 'additionalProperties'],
      ]),
    );
    expect(JSON.stringify(result)).not.toContain('GBP-secret');
  });

  it('should read JSON Schema 2020-12 by default and draft-07 when the schema says so', () => {
    const tuple = { prefixItems: [{ type: 'string' }], items: false };
    expect(sut.check(tuple, ['a']).valid).toBe(true);
    expect(sut.check(tuple, ['a', 'b']).valid).toBe(false);

    const draft07 = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      items: [{ type: 'string' }],
      additionalItems: false,
    };
    expect(sut.check(draft07, ['a']).valid).toBe(true);
    expect(sut.check(draft07, ['a', 'b']).valid).toBe(false);
  });

  it('should check formats and run patterns on the linear-time engine', () => {
    expect(sut.check({ type: 'string', format: 'email' }, 'not-an-address').valid).toBe(false);
    expect(sut.check({ type: 'string', pattern: '^(a|aa)+$' }, 'a'.repeat(40) + 'b').valid).toBe(
      false,
    );
    const lookAround = sut.check({ type: 'string', pattern: '^(?=a)a$' }, 'a');
    expect(lookAround).toMatchObject({ valid: false, schemaError: expect.any(String) });
  });

  it('should report a schema that does not compile instead of throwing', () => {
    expect(sut.check({ type: 'no-such-type' }, 1)).toMatchObject({
      valid: false,
      schemaError: expect.any(String),
    });
    expect(sut.check('text', 1)).toMatchObject({ valid: false, schemaError: expect.any(String) });
  });

  it("should compile two servers' schemas with the same $id independently", () => {
    const first = { $id: 'urn:tool', type: 'string' };
    const second = { $id: 'urn:tool', type: 'number' };
    expect(sut.check(first, 'x').valid).toBe(true);
    expect(sut.check(second, 2).valid).toBe(true);
    expect(sut.check(second, 'x').valid).toBe(false);
  });
});
