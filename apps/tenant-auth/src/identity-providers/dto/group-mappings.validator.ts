import { ValidationOptions, registerDecorator } from 'class-validator';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** D29: `{"<provider group>": ["<groupId>", …]}`, at most 200 provider groups. */
export function IsGroupMappings(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isGroupMappings',
      target: target.constructor,
      propertyName: String(propertyName),
      options: {
        message: 'groupMappings must map provider group names to arrays of group ids',
        ...options,
      },
      validator: {
        validate(value: unknown): boolean {
          if (value === null || typeof value !== 'object' || Array.isArray(value)) {
            return false;
          }
          const entries = Object.entries(value as Record<string, unknown>);
          return (
            entries.length <= 200 &&
            entries.every(
              ([name, ids]) =>
                name.length > 0 &&
                name.length <= 256 &&
                Array.isArray(ids) &&
                ids.length <= 100 &&
                ids.every((id) => typeof id === 'string' && UUID.test(id)),
            )
          );
        },
      },
    });
}
