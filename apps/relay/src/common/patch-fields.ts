/**
 * `ValidateIf` conditions of PATCH bodies (D12): a field may be absent; when present it is
 * validated, `null` included, so a required column is never set to null (a 400, not a 500).
 */
export const isPresent = (_object: object, value: unknown): boolean => value !== undefined;

/** A PATCH field that may be absent or null (null clears an optional column). */
export const isSet = (_object: object, value: unknown): boolean =>
  value !== undefined && value !== null;
