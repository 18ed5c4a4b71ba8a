import { TypeMetadata } from 'class-transformer';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';

export type ClassJsonSchema = Record<string, unknown>;

/**
 * JSON Schemas derived from the class-validator metadata of every registered class, keyed by
 * class name, with references under `refPointerPrefix`, nested types followed through
 * class-transformer's `@Type`. The one derivation behind the OpenAPI request schemas (F20) and
 * the event contracts' compiled validation and AsyncAPI document (`libs/messaging`).
 */
export function classJsonSchemas(refPointerPrefix: string): Record<string, ClassJsonSchema> {
  return validationMetadatasToSchemas({
    refPointerPrefix,
    classTransformerMetadataStorage: defaultMetadataStorage,
  }) as Record<string, ClassJsonSchema>;
}

/** The `@Type` class-transformer recorded for a property, undefined when it has none. */
export function typeMetadataOf(target: object, propertyName: string): TypeMetadata | undefined {
  type Target = Parameters<typeof defaultMetadataStorage.findTypeMetadata>[0];
  return defaultMetadataStorage.findTypeMetadata(target as Target, propertyName);
}
