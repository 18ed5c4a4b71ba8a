import { classJsonSchemas } from '@agp/http';

export type JsonSchema = Record<string, unknown>;

/** As `libs/http` derives them, with null let through where `@IsOptional` lets it. */
export function contractJsonSchemas(refPointerPrefix: string): Record<string, JsonSchema> {
  return acceptingNull(classJsonSchemas(refPointerPrefix));
}

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
