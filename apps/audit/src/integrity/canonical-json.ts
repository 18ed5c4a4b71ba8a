// What the chain hashes, so the same event read back from PostgreSQL (jsonb reorders keys) gives
// the same bytes (A6).
export function canonicalJson(value: unknown, omitTopLevelKey?: string): string {
  if (omitTopLevelKey === undefined && isFlatAndSorted(value)) {
    return JSON.stringify(value);
  }
  const sorted = { hasIndexKeys: false };
  const clone = sortedClone(value, sorted, omitTopLevelKey);
  // V8's JSON.stringify keeps insertion order except for array-index-like keys ("2" before "10"),
  // which it writes first in numeric order: those few values take the appending walk.
  if (!sorted.hasIndexKeys) {
    return JSON.stringify(clone) ?? 'null';
  }
  return append(
    '',
    omitTopLevelKey && typeof value === 'object' && value !== null
      ? { ...value, [omitTopLevelKey]: undefined }
      : value,
  );
}

const INDEX_KEY = /^(?:0|[1-9]\d{0,9})$/;

/** What `forStringify` answers for a value that only the appending walk writes canonically. */
export const NEEDS_CANONICAL_WALK = Symbol('needs the canonical walk');

/** The value as one JSON.stringify of a larger object must meet it to write its canonical form. */
export function forStringify(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || isFlatAndSorted(value)) {
    return value;
  }
  const flags = { hasIndexKeys: false };
  const clone = sortedClone(value, flags);
  return flags.hasIndexKeys ? NEEDS_CANONICAL_WALK : clone;
}

function isScalar(value: unknown): boolean {
  return value !== undefined && (value === null || typeof value !== 'object');
}

// An array of scalars, or an object of scalars whose keys already come in code unit order (as
// JSON.stringify will write them): the canonical form is JSON.stringify's, with nothing to copy.
function isFlatAndSorted(value: unknown): boolean {
  if (value === null || typeof value !== 'object') {
    return false;
  }
  if (Array.isArray(value)) {
    return value.every(isScalar);
  }
  // Only plain objects: JSON.stringify would write a Date (any toJSON) otherwise than the walk.
  if (Object.getPrototypeOf(value) !== Object.prototype) {
    return false;
  }
  let previous: string | undefined;
  for (const key in value) {
    if (
      (previous !== undefined && !(previous < key)) ||
      !isScalar((value as Record<string, unknown>)[key])
    ) {
      return false;
    }
    previous = key;
  }
  return true;
}

/** A copy with every object's keys inserted in sorted order, for one native JSON.stringify. */
function sortedClone(value: unknown, flags: { hasIndexKeys: boolean }, omitKey?: string): unknown {
  if (value === null || typeof value !== 'object') {
    return value;
  }
  if (Array.isArray(value)) {
    return value.map((item: unknown) => (item === undefined ? null : sortedClone(item, flags)));
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  const copy: Record<string, unknown> = {};
  for (const key of keys) {
    const member = record[key];
    if (member !== undefined && key !== omitKey) {
      flags.hasIndexKeys ||= INDEX_KEY.test(key);
      copy[key] = sortedClone(member, flags);
    }
  }
  return copy;
}

function append(out: string, value: unknown): string {
  if (value === null || typeof value !== 'object') {
    return out + (JSON.stringify(value) ?? 'null');
  }
  if (Array.isArray(value)) {
    out += '[';
    for (let i = 0; i < value.length; i += 1) {
      if (i > 0) {
        out += ',';
      }
      const item: unknown = value[i];
      out = item === undefined ? `${out}null` : append(out, item);
    }
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length > 1) {
    keys.sort();
  }
  out += '{';
  let isFirst = true;
  for (const key of keys) {
    const member = record[key];
    if (member === undefined) {
      continue;
    }
    out += `${isFirst ? '' : ','}${JSON.stringify(key)}:`;
    out = append(out, member);
    isFirst = false;
  }
  return `${out}}`;
}
