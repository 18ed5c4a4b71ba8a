import { createHash } from 'node:crypto';

/** What a secret or a credential is recorded as, never its value (D42). */
export const REDACTED = '[redacted]';

/** Longest value, as JSON, recorded as it is; a longer one is recorded by digest (D42). */
export const MAX_RECORDED_VALUE_LENGTH = 2_000;

const SECRET_NAME =
  /(^|[^a-z])(secrets?|password|passwd|passphrase|token|credentials?|authorization|cookies?)([^a-z]|$)|api[-_]?key|private[-_]?key|signing[-_]?key|secret/i;

export function isSecretField(name: string): boolean {
  return SECRET_NAME.test(name.replace(/([a-z0-9])([A-Z])/g, '$1_$2'));
}

export function recordedValue(value: unknown, secrets: ReadonlySet<string> = new Set()): unknown {
  const plain = redacted(toJson(value), secrets);
  const json = JSON.stringify(plain) ?? '';
  if (json.length <= MAX_RECORDED_VALUE_LENGTH) {
    return plain;
  }
  return { sha256: createHash('sha256').update(json).digest('hex'), length: json.length };
}

function redacted(value: unknown, secrets: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) {
    return value.map((item) => redacted(item, secrets));
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, member]) => [
        key,
        member !== null && (secrets.has(key) || isSecretField(key))
          ? REDACTED
          : redacted(member, secrets),
      ]),
    );
  }
  return value;
}

export function toJson(value: unknown): unknown {
  const json = JSON.stringify(value, (_key, member: unknown) =>
    // Raw bytes on an administered resource are key material or ciphertext: never recorded.
    isSerialisedBuffer(member) || member instanceof Uint8Array ? REDACTED : member,
  );
  return json === undefined ? undefined : (JSON.parse(json) as unknown);
}

function isSerialisedBuffer(value: unknown): boolean {
  return (
    value !== null &&
    typeof value === 'object' &&
    (value as { type?: unknown }).type === 'Buffer' &&
    Array.isArray((value as { data?: unknown }).data)
  );
}
