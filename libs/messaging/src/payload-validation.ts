import { EventType, payloadClassOf } from '@agp/contracts';
import { typeMetadataOf } from '@agp/http';
import Ajv, { ValidateFunction } from 'ajv';
import { plainToInstance } from 'class-transformer';
import { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import {
  ARRAY_MAX_SIZE,
  IS_ARRAY,
  IS_IN,
  IS_INT,
  IS_NUMBER,
  IS_OBJECT,
  IS_OPTIONAL,
  IS_STRING,
  IS_UUID,
  MATCHES,
  MAX,
  MAX_LENGTH,
  MIN,
  ValidationTypes,
  getMetadataStorage,
  isUUID,
  validateSync,
} from 'class-validator';

import { JsonSchema, contractJsonSchemas } from './contract-schemas';

type PayloadClass = new () => object;

/** Compiled: class-validator spends ~50 µs on an audit payload, this under 1 µs (issue 5). */
export function invalidPayloadProperties(type: EventType, data: object): string[] {
  const payloadClass = payloadClassOf(type);
  if (compiledValidatorOf(payloadClass)?.(data)) {
    return [];
  }
  return validateSync(plainToInstance(payloadClass, data), { forbidUnknownValues: false }).map(
    (error) => error.property,
  );
}

const compiled = new Map<PayloadClass, ValidateFunction | undefined>();
let ajv: Ajv | undefined;
let schemas: Record<string, JsonSchema> | undefined;

/** The compiled accept-only validator of a payload class, or undefined when it has none. */
export function compiledValidatorOf(payloadClass: PayloadClass): ValidateFunction | undefined {
  if (!compiled.has(payloadClass)) {
    compiled.set(
      payloadClass,
      translatable(payloadClass) ? compileOrNothing(payloadClass) : undefined,
    );
  }
  return compiled.get(payloadClass);
}

/** A schema Ajv cannot compile leaves the class to class-validator: slower, never wrong. */
function compileOrNothing(payloadClass: PayloadClass): ValidateFunction | undefined {
  try {
    return compile(payloadClass);
  } catch {
    return undefined;
  }
}

function compile(payloadClass: PayloadClass): ValidateFunction {
  ajv ??= new Ajv({
    strict: false,
    // class-validator tests patterns without the `u` flag; so must the compiled schema.
    unicodeRegExp: false,
    formats: { uuid: { type: 'string', validate: (value: string) => isUUID(value) } },
  });
  schemas ??= contractJsonSchemas('#/definitions/');
  return ajv.compile({ $ref: `#/definitions/${payloadClass.name}`, definitions: schemas });
}

/** Anything else (groups, nested unions, dates, e-mails, lengths) stays on class-validator. */
export function translatable(payloadClass: PayloadClass, seen = new Set<PayloadClass>()): boolean {
  if (seen.has(payloadClass)) {
    return true;
  }
  seen.add(payloadClass);
  const metadata = getMetadataStorage().getTargetValidationMetadatas(payloadClass, '', true, false);
  return metadata.every(
    (meta) =>
      (meta.groups?.length ?? 0) === 0 && !meta.always && translatableConstraint(meta, seen),
  );
}

function translatableConstraint(meta: ValidationMetadata, seen: Set<PayloadClass>): boolean {
  const [first] = (meta.constraints ?? []) as unknown[];
  switch (meta.type) {
    case 'conditionalValidation':
      return meta.name === IS_OPTIONAL;
    case ValidationTypes.IS_DEFINED:
      return true;
    case 'nestedValidation': {
      const typeMetadata = typeMetadataOf(meta.target as PayloadClass, meta.propertyName);
      const nested =
        typeMetadata && !typeMetadata.options?.discriminator
          ? (typeMetadata.typeFunction() as unknown)
          : undefined;
      return (
        typeof nested === 'function' &&
        nested !== Object &&
        translatable(nested as PayloadClass, seen)
      );
    }
    case 'customValidation':
      return translatableCheck(meta.name ?? '', first);
    default:
      return false;
  }
}

function translatableCheck(name: string, first: unknown): boolean {
  switch (name) {
    case IS_STRING:
    case IS_ARRAY:
    case IS_OBJECT:
    case IS_INT:
      return true;
    case MAX_LENGTH:
    case ARRAY_MAX_SIZE:
    case MIN:
    case MAX:
      return typeof first === 'number';
    case IS_IN:
      return (
        Array.isArray(first) &&
        first.length > 0 &&
        first.every((value) => typeof value === 'string')
      );
    case IS_UUID:
      return first === undefined || first === null || first === 'all';
    // Flags are dropped by the translation: without i, m or s a pattern only gets stricter.
    case MATCHES:
      return first instanceof RegExp && /^[ims]*$/.test(first.flags);
    case IS_NUMBER:
      return (
        first === undefined ||
        Object.keys(first as object).every((key) => key === 'allowNaN' || key === 'allowInfinity')
      );
    default:
      return false;
  }
}
