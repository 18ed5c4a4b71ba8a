/** Reading OTLP's common values from an export request as plain objects (A23). */

/** The request itself cannot be read as OTLP: a 400, nothing stored. */
export class MalformedOtlp extends Error {}

/** One span or log record that cannot be kept: counted as rejected in the partial success. */
export class RejectedItem extends Error {}

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A repeated field: absent is empty; anything but a list makes the request malformed. */
export function listOf(value: unknown, field: string): unknown[] {
  if (value === undefined || value === null) {
    return [];
  }
  if (!Array.isArray(value)) {
    throw new MalformedOtlp(`${field} must be an array`);
  }
  return value;
}

/** A message field: absent is empty; anything but an object makes the request malformed. */
export function recordOf(value: unknown, field: string): Record<string, unknown> {
  if (value === undefined || value === null) {
    return {};
  }
  if (!isRecord(value)) {
    throw new MalformedOtlp(`${field} must be an object`);
  }
  return value;
}

export function textOf(value: unknown, field: string): string | null {
  if (value === undefined || value === null || value === '') {
    return null;
  }
  if (typeof value !== 'string') {
    throw new RejectedItem(`${field} must be a string`);
  }
  return value;
}

/** An enum or 32-bit field: integers only (OTLP/JSON encodes enums as integers). */
export function intOf(value: unknown, field: string, max = 0xffffffff): number {
  if (value === undefined || value === null) {
    return 0;
  }
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > max) {
    throw new RejectedItem(`${field} must be an integer from 0 to ${max}`);
  }
  return n;
}

/** `flags` is a fixed32, stored in an integer column: past this PostgreSQL would fail the export. */
export const MAX_FLAGS = 0x7fffffff;

const MAX_UINT64 = 0xffffffffffffffffn;

/** A fixed64 time in nanoseconds since the epoch, as a decimal string (0 when absent). */
export function nanosOf(value: unknown, field: string): bigint {
  if (value === undefined || value === null || value === '') {
    return 0n;
  }
  const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
  if (typeof text !== 'string' || !/^\d{1,20}$/.test(text) || BigInt(text) > MAX_UINT64) {
    throw new RejectedItem(`${field} must be an unsigned 64-bit integer`);
  }
  return BigInt(text);
}

/** A trace id (16 bytes) or span id (8 bytes): bytes from protobuf, hex from JSON. */
const HEX_ID: Record<number, RegExp> = { 8: /^[0-9a-f]{16}$/, 16: /^[0-9a-f]{32}$/ };
const ALL_ZERO = /^0+$/;

export function idOf(value: unknown, bytes: 8 | 16, field: string): string | null {
  let hex: string;
  if (value instanceof Uint8Array) {
    if (value.byteLength === 0) {
      return null;
    }
    hex = Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex');
  } else if (value === undefined || value === null || value === '') {
    return null;
  } else if (typeof value === 'string') {
    hex = value.toLowerCase();
  } else {
    throw new RejectedItem(`${field} must be ${bytes} bytes (hex in JSON)`);
  }
  if (!HEX_ID[bytes].test(hex) || ALL_ZERO.test(hex)) {
    throw new RejectedItem(`${field} must be ${bytes} bytes, not all zero (hex in JSON)`);
  }
  return hex;
}

function int64Of(value: unknown): Json {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !/^-?\d{1,20}$/.test(text)) {
    throw new RejectedItem('intValue must be a 64-bit integer');
  }
  const n = Number(text);
  // A value past 2^53 keeps every digit as a string.
  return Number.isSafeInteger(n) ? n : text;
}

function doubleOf(value: unknown): Json {
  if (typeof value === 'number') {
    return Number.isFinite(value) ? value : String(value);
  }
  if (typeof value === 'string' && ['NaN', 'Infinity', '-Infinity'].includes(value)) {
    return value;
  }
  throw new RejectedItem('doubleValue must be a number');
}

function scalarText(value: unknown, field: string): string {
  if (typeof value !== 'string') {
    throw new RejectedItem(`${field} must be a string`);
  }
  return value;
}

/** An AnyValue as plain JSON: scalars as themselves, bytes as base64, arrays and maps nested. */
export function anyValueOf(value: unknown): Json {
  if (!isRecord(value)) {
    return null;
  }
  if (value.stringValue !== undefined && value.stringValue !== null) {
    return scalarText(value.stringValue, 'stringValue');
  }
  if (value.boolValue !== undefined && value.boolValue !== null) {
    return value.boolValue === true;
  }
  if (value.intValue !== undefined && value.intValue !== null) {
    return int64Of(value.intValue);
  }
  if (value.doubleValue !== undefined && value.doubleValue !== null) {
    return doubleOf(value.doubleValue);
  }
  if (value.bytesValue !== undefined && value.bytesValue !== null) {
    return value.bytesValue instanceof Uint8Array
      ? Buffer.from(value.bytesValue).toString('base64')
      : scalarText(value.bytesValue, 'bytesValue');
  }
  if (isRecord(value.arrayValue)) {
    return listOf(value.arrayValue.values, 'arrayValue.values').map(anyValueOf);
  }
  if (isRecord(value.kvlistValue)) {
    return attributesOf(value.kvlistValue.values, 'kvlistValue.values');
  }
  return null;
}

/** A list of KeyValue as one object; a repeated key keeps its last value. */
export function attributesOf(value: unknown, field = 'attributes'): { [key: string]: Json } {
  const attributes: { [key: string]: Json } = {};
  for (const entry of listOf(value, field)) {
    if (!isRecord(entry) || typeof entry.key !== 'string') {
      throw new RejectedItem(`${field} must hold {key, value} pairs`);
    }
    attributes[entry.key] = anyValueOf(entry.value);
  }
  return attributes;
}

/** What an item's resource and instrumentation scope say, kept with each of its items. */
export interface Origin {
  resourceAttributes: { [key: string]: Json };
  serviceName: string | null;
  scope: { name: string | null; version: string | null; attributes: { [key: string]: Json } };
}

export function originOf(
  resource: Record<string, unknown>,
  scope: Record<string, unknown>,
): Origin {
  const resourceAttributes = attributesOf(resource.attributes, 'resource.attributes');
  const service = resourceAttributes['service.name'];
  return {
    resourceAttributes,
    serviceName: typeof service === 'string' ? service : null,
    scope: {
      name: textOf(scope.name, 'scope.name'),
      version: textOf(scope.version, 'scope.version'),
      attributes: attributesOf(scope.attributes, 'scope.attributes'),
    },
  };
}
