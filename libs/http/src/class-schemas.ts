import { TypeMetadata } from 'class-transformer';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';

export type ClassJsonSchema = Record<string, unknown>;

/** From the class-validator metadata, nested types followed through `@Type` (F20). */
export function classJsonSchemas(refPointerPrefix: string): Record<string, ClassJsonSchema> {
  return validationMetadatasToSchemas({
    refPointerPrefix,
    classTransformerMetadataStorage: defaultMetadataStorage,
  }) as Record<string, ClassJsonSchema>;
}

export function typeMetadataOf(target: object, propertyName: string): TypeMetadata | undefined {
  type Target = Parameters<typeof defaultMetadataStorage.findTypeMetadata>[0];
  return defaultMetadataStorage.findTypeMetadata(target as Target, propertyName);
}
