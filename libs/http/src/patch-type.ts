import { Type } from '@nestjs/common';
import { PartialType } from '@nestjs/mapped-types';

export { IntersectionType, OmitType, PickType } from '@nestjs/mapped-types';

/** Keys of T that may be absent: the ones a PATCH may clear with `null`. */
type OptionalKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? K : never }[keyof T];

/** A PATCH body of T: every field may be absent, and an optional one may be `null`. */
export type Patch<T> = { [K in keyof T]?: K extends OptionalKeys<T> ? T[K] | null : T[K] };

/**
 * The update DTO of a create DTO (D12): every field may be absent; a field that is present is
 * validated as the create DTO validates it, `null` included. So `null` for a required field is a
 * 400 naming it (it never reaches a NOT NULL column as a 500), and `null` for an optional one
 * (`@IsOptional()` in the create DTO) passes and clears it.
 *
 * `PartialType` with `skipNullProperties: false`: `ValidateIf(value !== undefined)` instead of
 * `IsOptional()`, which would let `null` through for every field.
 */
export function PatchType<T>(createDto: Type<T>): Type<Patch<T>> {
  return PartialType(createDto, { skipNullProperties: false }) as Type<Patch<T>>;
}

/**
 * `ValidateIf` condition of a field that may be absent but, when present, is validated with `null`
 * included (an optional field that cannot be cleared: a timeout, a setting).
 */
export const isPresent = (_object: object, value: unknown): boolean => value !== undefined;

/** `ValidateIf` condition of a hand-written PATCH field that may be absent or `null` (clears it). */
export const isSet = (_object: object, value: unknown): boolean =>
  value !== undefined && value !== null;
