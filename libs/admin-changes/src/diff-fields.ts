import { FieldChange } from '@agp/contracts';

import { REDACTED, isSecretField, recordedValue, toJson } from './redact';

export interface DiffOptions {
  /** Fields that hold secrets although their names do not say so (a URL with a key in it). */
  secrets?: readonly string[];
  ignore?: readonly string[];
  /** Fields the change wrote although before and after read the same (D37). */
  changed?: readonly string[];
}

export interface FieldDiff {
  fields: string[];
  changes: Record<string, FieldChange>;
}

const NOT_ADMINISTERED = ['id', 'tenantId', 'createdAt', 'updatedAt'];

/** Fields that differ as JSON; a changed secret is listed but never shown (D42). */
export function diffFields(
  before: object | null | undefined,
  after: object | null | undefined,
  options: DiffOptions = {},
): FieldDiff {
  const secrets = new Set(options.secrets ?? []);
  const ignored = new Set([...NOT_ADMINISTERED, ...(options.ignore ?? [])]);
  const old = (toJson(before ?? {}) ?? {}) as Record<string, unknown>;
  const next = (toJson(after ?? {}) ?? {}) as Record<string, unknown>;
  const written = new Set(options.changed ?? []);
  const names = [...new Set([...Object.keys(old), ...Object.keys(next), ...written])].filter(
    (name) => !ignored.has(name),
  );
  const fields: string[] = [];
  const changes: Record<string, FieldChange> = {};
  for (const name of names) {
    if (canonical(old[name]) === canonical(next[name]) && !written.has(name)) {
      continue;
    }
    const isSecret = secrets.has(name) || isSecretField(name);
    // null says "none" (no secret set), which is safe to show; any value of a secret is not.
    const side = (value: unknown): unknown =>
      value === null ? null : isSecret ? REDACTED : recordedValue(value, secrets);
    fields.push(name);
    changes[name] = {
      ...(old[name] !== undefined ? { before: side(old[name]) } : {}),
      ...(next[name] !== undefined ? { after: side(next[name]) } : {}),
    };
  }
  return { fields, changes };
}

/** JSON with members in code unit order, so that member order never reads as a change. */
function canonical(value: unknown): string {
  return (
    JSON.stringify(value, (_key, member: unknown) =>
      member !== null && typeof member === 'object' && !Array.isArray(member)
        ? Object.fromEntries(
            Object.entries(member).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
          )
        : member,
    ) ?? 'undefined'
  );
}
