import { Type } from '@nestjs/common';
import { PartialType } from '@nestjs/mapped-types';

export { IntersectionType, OmitType, PickType } from '@nestjs/mapped-types';

type OptionalKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? K : never }[keyof T];

export type Patch<T> = { [K in keyof T]?: K extends OptionalKeys<T> ? T[K] | null : T[K] };

/** The update DTO of a create DTO (D12): every field may be absent. */
export function PatchType<T>(createDto: Type<T>): Type<Patch<T>> {
  return PartialType(createDto, { skipNullProperties: false }) as Type<Patch<T>>;
}

/** `ValidateIf` of an optional field that cannot be cleared: absent is fine, `null` is not. */
export const isPresent = (_object: object, value: unknown): boolean => value !== undefined;

export const isSet = (_object: object, value: unknown): boolean =>
  value !== undefined && value !== null;
