import { classJsonSchemas } from '@agp/http';

export type JsonSchema = Record<string, unknown>;

/**
 * JSON Schemas derived from the class-validator metadata of every registered class (the contract
 * classes among them), keyed by class name, with references under `refPointerPrefix` (the
 * derivation of `libs/http`, null let through where `@IsOptional` lets it), behind the consumers'
 * compiled validation and the AsyncAPI document.
 */
export function contractJsonSchemas(refPointerPrefix: string): Record<string, JsonSchema> {
  return acceptingNull(classJsonSchemas(refPointerPrefix));
}

/**
 * `@IsOptional` skips every other constraint of a property whose value is null or undefined; the
 * derived schema only leaves such properties out of `required`, so null is let through here.
 */
function acceptingNull(
  definitions: Record<string, { properties?: object; required?: string[] }>,
): Record<string, JsonSchema> {
  return Object.fromEntries(
    Object.entries(definitions).map(([name, schema]) => {
      const required = new Set(schema.required ?? []);
      const properties = schema.properties ?? {};
      const withNull = Object.fromEntries(
        Object.entries(properties).map(([key, property]) => [
          key,
          required.has(key) ? property : { anyOf: [{ type: 'null' }, property] },
        ]),
      );
      return [name, { ...schema, properties: withNull }];
    }),
  );
}
