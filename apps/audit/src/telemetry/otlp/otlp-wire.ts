import { Reader, util } from 'protobufjs';

import { Json, RejectedItem } from './otlp-values';

// Protobuf's wire types (https://protobuf.dev/programming-guides/encoding/).
export const VARINT = 0;
export const FIXED64 = 1;
export const LEN = 2;
export const FIXED32 = 5;

/** The request's bytes are not the message they claim to be: the whole request is a 400 (A21). */
export class MalformedWire extends Error {}

/**
 * A request's reader. An item's rejection is noted here rather than thrown, and reading goes on:
 * protobufjs decodes every byte before anything is checked, so malformed bytes behind a rejected
 * field still make the whole request a 400 (A48).
 */
export type WireReader = Reader & {
  rejection?: RejectedItem;
  hasNul: boolean;
  keys: Map<number, KnownKey>;
};

export function readerOf(buffer: Buffer): WireReader {
  const r = Reader.create(buffer) as WireReader;
  r.rejection = undefined;
  r.hasNul = false;
  r.keys = new Map();
  return r;
}

/** A key read before in this request: where its bytes (length prefix included) are, and its text. */
interface KnownKey {
  start: number;
  stop: number;
  text: string;
}

/** Keys a request remembers, and the longest (in bytes): enough for what an SDK repeats. */
const MAX_KNOWN_KEYS = 256;
const MAX_KNOWN_KEY_BYTES = 64;

/**
 * An attribute key, decoded once per request (A50): every span of an export names the same few,
 * so one already met (same bytes) is the same string, found by a hash of its bytes.
 */
function keyOf(r: WireReader, wire: number, end: number): string {
  const start = r.pos;
  const stop = lengthEnd(r, wire, end);
  r.pos = start;
  if (stop - start > MAX_KNOWN_KEY_BYTES) {
    return stringOf(r, wire, end);
  }
  const buffer = r.buf;
  let hash = stop - start;
  for (let i = start; i < stop; i += 1) {
    hash = (Math.imul(hash, 31) + buffer[i]) | 0;
  }
  const known = r.keys.get(hash);
  if (known && known.stop - known.start === stop - start) {
    let same = true;
    for (let i = 0; same && i < stop - start; i += 1) {
      same = buffer[known.start + i] === buffer[start + i];
    }
    if (same) {
      r.pos = stop;
      return known.text;
    }
  }
  const hadNul = r.hasNul;
  r.hasNul = false;
  const text = stringOf(r, wire, end);
  // A key with NUL is left out, so that reading it again marks its span (A50).
  if (!r.hasNul && r.keys.size < MAX_KNOWN_KEYS) {
    r.keys.set(hash, { start, stop, text });
  }
  r.hasNul ||= hadNul;
  return text;
}

/** The first rejection noted since the last call, if any. */
export function takeRejection(r: WireReader): RejectedItem | undefined {
  const rejection = r.rejection;
  r.rejection = undefined;
  return rejection;
}

/** The next tag of a message ending at `end` (field number << 3 | wire type), or -1 at its end. */
export function nextTag(r: Reader, end: number): number {
  return r.pos < end ? r.uint32() : -1;
}

/** Where a length-delimited field that starts here ends; its length must stay inside `end`. */
export function lengthEnd(r: Reader, wire: number, end: number): number {
  expectWire(wire, LEN);
  const length = r.uint32();
  const stop = r.pos + length;
  if (stop > end) {
    throw new MalformedWire('a length runs past the end of its message');
  }
  return stop;
}

export function expectWire(wire: number, expected: number): void {
  if (wire !== expected) {
    throw new MalformedWire(`wire type ${wire} where ${expected} was expected`);
  }
}

/**
 * A string read as protobufjs' generated decoder reads proto3 strings: invalid UTF-8 is an error.
 * Node's decoder first (one flat string, where protobufjs concatenates eight characters at a
 * time); it writes U+FFFD for invalid bytes, so a string holding one is read again strictly.
 */
export function stringOf(r: WireReader, wire: number, end: number): string {
  const stop = lengthEnd(r, wire, end);
  let text = (r.buf as Buffer).toString('utf8', r.pos, stop);
  if (text.includes('\ufffd')) {
    text = util.utf8.readStrict(r.buf, r.pos, stop);
  }
  // What the input guard would look for in it (A50).
  if (text.includes('\u0000')) {
    r.hasNul = true;
  }
  r.pos = stop;
  return text;
}

/** A bytes field as [start, stop) of the buffer, without a copy. */
export function bytesAt(r: Reader, wire: number, end: number): [number, number] {
  const stop = lengthEnd(r, wire, end);
  const start = r.pos;
  r.pos = stop;
  return [start, stop];
}

/** A fixed64 as an unsigned BigInt (times in nanoseconds), without protobufjs' Long. */
export function fixed64Of(r: Reader, wire: number): bigint {
  expectWire(wire, FIXED64);
  const lo = r.fixed32();
  const hi = r.fixed32();
  return hi === 0 ? BigInt(lo) : (BigInt(hi) << 32n) | BigInt(lo);
}

export function uint32Of(r: Reader, wire: number): number {
  expectWire(wire, VARINT);
  return r.uint32();
}

export function int32Of(r: Reader, wire: number): number {
  expectWire(wire, VARINT);
  return r.int32();
}

export function skip(r: Reader, wire: number, end: number): void {
  r.skipType(wire);
  if (r.pos > end) {
    throw new MalformedWire('a field runs past the end of its message');
  }
}

/** Where a bytes field lies in the buffer, [start, stop), or undefined when absent. */
export type Span = [number, number] | undefined;

/** A trace or span id as lowercase hex, as `idOf` reads bytes: empty is absent. */
export function hexOf(buffer: Buffer, at: Span, bytes: 8 | 16, field: string): string | null {
  if (!at || at[0] === at[1]) {
    return null;
  }
  let isZero = true;
  for (let i = at[0]; i < at[1] && isZero; i += 1) {
    isZero = buffer[i] === 0;
  }
  if (at[1] - at[0] !== bytes || isZero) {
    throw new RejectedItem(`${field} must be ${bytes} bytes, not all zero (hex in JSON)`);
  }
  return buffer.toString('hex', at[0], at[1]);
}

export function bounded(n: number, field: string, max: number): number {
  if (n < 0 || n > max) {
    throw new RejectedItem(`${field} must be an integer from 0 to ${max}`);
  }
  return n;
}

/** protobufjs' decoder refuses messages nested past this (protoc's default), so does this reader. */
const RECURSION_LIMIT = 100;

/** `depth` is the message's nesting as protobufjs counts it: the request is 0, a span 3. */
export function lengthAt(r: Reader, wire: number, end: number, depth: number): number {
  if (depth > RECURSION_LIMIT) {
    throw new MalformedWire('max depth exceeded');
  }
  return lengthEnd(r, wire, end);
}

/**
 * A KeyValue (at `depth`) into one object, as `attributesOf` reads it (a repeated key keeps its
 * last); one without a key is noted as the item's rejection.
 */
export function keyValuesOf(
  r: WireReader,
  attributes: { [key: string]: Json },
  wire: number,
  end: number,
  field: string,
  depth: number,
): void {
  const stop = lengthAt(r, wire, end, depth);
  let key: string | undefined;
  let value: Json = null;
  for (let t = nextTag(r, stop); t >= 0; t = nextTag(r, stop)) {
    if (t >>> 3 === 1) {
      key = keyOf(r, t & 7, stop);
    } else if (t >>> 3 === 2) {
      value = anyValueOf(r, t & 7, stop, depth + 1);
    } else {
      skip(r, t & 7, stop);
    }
  }
  if (key === undefined) {
    r.rejection ??= new RejectedItem(`${field} must hold {key, value} pairs`);
    return;
  }
  attributes[key] = value;
}

/** An AnyValue as `anyValueOf` gives it (a oneof: the last value on the wire wins). */
function anyValueOf(r: WireReader, wire: number, end: number, depth: number): Json {
  const stop = lengthAt(r, wire, end, depth);
  let value: Json = null;
  for (let t = nextTag(r, stop); t >= 0; t = nextTag(r, stop)) {
    value = oneValue(r, t >>> 3, t & 7, stop, depth, value);
  }
  return value;
}

function oneValue(
  r: WireReader,
  field: number,
  wire: number,
  stop: number,
  depth: number,
  previous: Json,
): Json {
  switch (field) {
    case 1:
      return stringOf(r, wire, stop);
    case 2:
      expectWire(wire, VARINT);
      return r.bool();
    case 3: {
      expectWire(wire, VARINT);
      const long = r.int64() as unknown as { toNumber(): number; toString(): string };
      const n = long.toNumber();
      // A value past 2^53 keeps every digit as a string (A23).
      return Number.isSafeInteger(n) ? n : long.toString();
    }
    case 4: {
      expectWire(wire, FIXED64);
      const n = r.double();
      return Number.isFinite(n) ? n : String(n);
    }
    case 5: {
      const values: Json[] = [];
      const end = lengthAt(r, wire, stop, depth + 1);
      for (let t = nextTag(r, end); t >= 0; t = nextTag(r, end)) {
        if (t >>> 3 === 1) {
          values.push(anyValueOf(r, t & 7, end, depth + 2));
        } else {
          skip(r, t & 7, end);
        }
      }
      return values;
    }
    case 6: {
      const map: { [key: string]: Json } = {};
      const end = lengthAt(r, wire, stop, depth + 1);
      for (let t = nextTag(r, end); t >= 0; t = nextTag(r, end)) {
        if (t >>> 3 === 1) {
          keyValuesOf(r, map, t & 7, end, 'kvlistValue.values', depth + 2);
        } else {
          skip(r, t & 7, end);
        }
      }
      return map;
    }
    case 7: {
      const [start, end] = bytesAt(r, wire, stop);
      return (r.buf as Buffer).toString('base64', start, end);
    }
    default:
      skip(r, wire, stop);
      return previous;
  }
}
