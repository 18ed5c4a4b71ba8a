import { Transform } from 'class-transformer';
import { ValidationArguments, ValidationOptions, registerDecorator } from 'class-validator';

/** D17: a filter is repeatable (`?action=BLOCK&action=WARN`) or comma-separated (`?action=BLOCK,WARN`). */
export function toList(value: unknown): string[] | undefined {
  if (value === undefined || value === null || value === '') {
    return undefined;
  }
  const parts = (Array.isArray(value) ? value : [value]).flatMap((item) => String(item).split(','));
  return parts.map((part) => part.trim()).filter((part) => part.length > 0);
}

export const AsList = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => toList(value));

/** Every value must be one of `allowed`; the message names each unknown one (D17). */
export function IsListOf(
  allowed: readonly string[],
  options?: ValidationOptions,
): PropertyDecorator {
  return (target: object, propertyName: string | symbol): void => {
    registerDecorator({
      name: 'isListOf',
      target: target.constructor,
      propertyName: String(propertyName),
      options,
      validator: {
        validate: (value: unknown) =>
          Array.isArray(value) && value.every((item) => allowed.includes(String(item))),
        defaultMessage: (args: ValidationArguments) => {
          const values = Array.isArray(args.value)
            ? (args.value as unknown[]).map(String)
            : [String(args.value)];
          const unknown = values.filter((item) => !allowed.includes(item));
          return `${args.property} has unknown value(s): ${unknown.join(', ')}`;
        },
      },
    });
  };
}
