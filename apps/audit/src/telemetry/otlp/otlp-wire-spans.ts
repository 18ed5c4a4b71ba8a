import { ReadItems, SpanItem, checked, nowNanos, spanText, timeOf } from './otlp-items';
import { Json, MAX_FLAGS, Origin, RejectedItem } from './otlp-values';
import {
  FIXED32,
  Span,
  WireReader,
  bytesAt,
  expectWire,
  bounded,
  fixed64Of,
  hexOf,
  int32Of,
  keyValuesOf,
  lengthEnd,
  nextTag,
  readerOf,
  skip,
  stringOf,
  takeRejection,
  uint32Of,
} from './otlp-wire';

type Attributes = { [key: string]: Json };

/**
 * A binary `ExportTraceServiceRequest` read straight into the rows `readSpans` makes of its
 * decoded form, with the same checks and the same reasons (A45): no message objects, no Long, no
 * second tree from `toObject`. Bytes that are not the message throw; a span that fails a check is
 * counted as rejected and the rest are read.
 */
export function readSpansWire(bytes: Uint8Array, now = nowNanos()): ReadItems<SpanItem> {
  const buffer = Buffer.isBuffer(bytes)
    ? bytes
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const r = readerOf(buffer);
  const result: ReadItems<SpanItem> = { items: [], rejected: 0 };
  for (let t = nextTag(r, r.len); t >= 0; t = nextTag(r, r.len)) {
    if (t >>> 3 === 1) {
      resourceSpans(r, lengthEnd(r, t & 7, r.len), now, result);
    } else {
      skip(r, t & 7, r.len);
    }
  }
  return result;
}

/**
 * Every occurrence of the message field `field` read in turn into the same fields: protobufjs
 * merges them (a repeated member grows, a later value replaces), and decodes each (A48).
 */
function mergedField(
  r: WireReader,
  field: number,
  end: number,
  read: (field: number, wire: number, stop: number) => void,
): void {
  for (let t = nextTag(r, end); t >= 0; t = nextTag(r, end)) {
    if (t >>> 3 !== field) {
      skip(r, t & 7, end);
      continue;
    }
    const stop = lengthEnd(r, t & 7, end);
    for (let m = nextTag(r, stop); m >= 0; m = nextTag(r, stop)) {
      read(m >>> 3, m & 7, stop);
    }
  }
}

/** `schema_url`, field 3 of both ResourceSpans and ScopeSpans. */
const SCHEMA_URL = 3;

interface Resource {
  attributes: Attributes;
  problem?: RejectedItem;
}

function resourceSpans(r: WireReader, end: number, now: bigint, result: ReadItems<SpanItem>): void {
  const start = r.pos;
  const attributes: Attributes = {};
  // The resource first, wherever it lies: its spans name it.
  mergedField(r, 1, end, (field, wire, stop) =>
    field === 1
      ? keyValuesOf(r, attributes, wire, stop, 'resource.attributes', 3)
      : skip(r, wire, stop),
  );
  const resource = { attributes, problem: takeRejection(r) };
  r.pos = start;
  for (let t = nextTag(r, end); t >= 0; t = nextTag(r, end)) {
    if (t >>> 3 === 2) {
      scopeSpans(r, lengthEnd(r, t & 7, end), resource, now, result);
    } else if (t >>> 3 === SCHEMA_URL) {
      stringOf(r, t & 7, end); // Not stored, but UTF-8 as protobufjs checks it (A48).
    } else {
      skip(r, t & 7, end);
    }
  }
  r.pos = end;
}

function rejection(error: unknown): RejectedItem {
  if (error instanceof RejectedItem) {
    return error;
  }
  throw error;
}

/** A group's origin, or why every span of the group is rejected (as `readItems` does). */
function originOf(r: WireReader, end: number, resource: Resource): Origin | RejectedItem {
  const start = r.pos;
  const scope = { name: null as string | null, version: null as string | null };
  const attributes: Attributes = {};
  mergedField(r, 1, end, (field, wire, stop) => {
    if (field === 1) {
      scope.name = stringOf(r, wire, stop) || null;
    } else if (field === 2) {
      scope.version = stringOf(r, wire, stop) || null;
    } else if (field === 3) {
      keyValuesOf(r, attributes, wire, stop, 'scope.attributes', 4);
    } else {
      skip(r, wire, stop);
    }
  });
  r.pos = start;
  const problem = takeRejection(r) ?? resource.problem;
  if (problem) {
    return problem;
  }
  const service = resource.attributes['service.name'];
  const origin: Origin = {
    resourceAttributes: resource.attributes,
    serviceName: typeof service === 'string' ? service : null,
    scope: { name: scope.name, version: scope.version, attributes },
  };
  try {
    checked(origin);
    return origin;
  } catch (error) {
    return rejection(error);
  }
}

function scopeSpans(
  r: WireReader,
  end: number,
  resource: Resource,
  now: bigint,
  result: ReadItems<SpanItem>,
): void {
  const origin = originOf(r, end, resource);
  for (let t = nextTag(r, end); t >= 0; t = nextTag(r, end)) {
    if (t >>> 3 !== 2) {
      if (t >>> 3 === SCHEMA_URL) {
        stringOf(r, t & 7, end);
      } else {
        skip(r, t & 7, end);
      }
      continue;
    }
    const stop = lengthEnd(r, t & 7, end);
    try {
      r.hasNul = false;
      const span = spanOf(r, stop, origin, now);
      // A50: strict UTF-8 holds no lone surrogate, and protobuf's nesting limit keeps values
      // shallower than the guard's, so only a NUL read in the span could make the guard refuse it:
      // the guard runs then, for its reason.
      if (r.hasNul) {
        checked(spanText(span));
      }
      result.items.push(span);
    } catch (error) {
      result.rejected += 1;
      result.firstReason ??= rejection(error).message;
    }
    r.pos = stop;
  }
}

interface SpanFields {
  traceId: Span;
  spanId: Span;
  parentSpanId: Span;
  traceState: string;
  flags: number;
  name: string;
  kind: number;
  start: bigint;
  end: bigint;
  attributes: Attributes;
  dropped: [number, number, number];
  events: Json[];
  links: LinkFields[];
  statusCode: number;
  statusMessage: string;
}

function spanOf(r: WireReader, end: number, origin: Origin | RejectedItem, now: bigint): SpanItem {
  // Read whole, even when its group is rejected: its bytes may still be malformed (A48).
  const s = fieldsOf(r, end);
  const problem = takeRejection(r);
  if (origin instanceof RejectedItem) {
    throw origin;
  }
  if (problem) {
    throw problem;
  }
  const buffer = r.buf as Buffer;
  // The checks and their order are `spanOf`'s in otlp-items.ts, so a span reads the same either way.
  const traceId = hexOf(buffer, s.traceId, 16, 'traceId');
  const spanId = hexOf(buffer, s.spanId, 8, 'spanId');
  if (!traceId || !spanId) {
    throw new RejectedItem('traceId and spanId are required');
  }
  if (!s.name) {
    throw new RejectedItem('name is required');
  }
  if (s.end < s.start) {
    throw new RejectedItem('endTimeUnixNano must not be before startTimeUnixNano');
  }
  const [droppedAttributes, droppedEvents, droppedLinks] = s.dropped;
  return {
    resourceAttributes: origin.resourceAttributes,
    serviceName: origin.serviceName,
    scope: origin.scope,
    traceId,
    spanId,
    parentSpanId: hexOf(buffer, s.parentSpanId, 8, 'parentSpanId'),
    traceState: s.traceState || null,
    flags: bounded(s.flags, 'flags', MAX_FLAGS),
    name: s.name,
    kind: bounded(s.kind, 'kind', 5),
    startTime: timeOf(s.start, 'startTimeUnixNano', now),
    startUnixNano: s.start.toString(),
    endUnixNano: s.end.toString(),
    statusCode: bounded(s.statusCode, 'status.code', 2),
    statusMessage: s.statusMessage || null,
    attributes: s.attributes,
    events: s.events.length > 0 ? s.events : null,
    links: s.links.length > 0 ? linksOf(buffer, s.links) : null,
    dropped:
      droppedAttributes + droppedEvents + droppedLinks > 0
        ? {
            ...(droppedAttributes > 0 ? { droppedAttributes } : {}),
            ...(droppedEvents > 0 ? { droppedEvents } : {}),
            ...(droppedLinks > 0 ? { droppedLinks } : {}),
          }
        : null,
  };
}

function fieldsOf(r: WireReader, end: number): SpanFields {
  const s: SpanFields = {
    traceId: undefined,
    spanId: undefined,
    parentSpanId: undefined,
    traceState: '',
    flags: 0,
    name: '',
    kind: 0,
    start: 0n,
    end: 0n,
    attributes: {},
    dropped: [0, 0, 0],
    events: [],
    links: [],
    statusCode: 0,
    statusMessage: '',
  };
  for (let t = nextTag(r, end); t >= 0; t = nextTag(r, end)) {
    readField(r, s, t >>> 3, t & 7, end);
  }
  return s;
}

function readField(r: WireReader, s: SpanFields, field: number, wire: number, end: number): void {
  switch (field) {
    case 1:
      s.traceId = bytesAt(r, wire, end);
      return;
    case 2:
      s.spanId = bytesAt(r, wire, end);
      return;
    case 3:
      s.traceState = stringOf(r, wire, end);
      return;
    case 4:
      s.parentSpanId = bytesAt(r, wire, end);
      return;
    case 5:
      s.name = stringOf(r, wire, end);
      return;
    case 6:
      s.kind = int32Of(r, wire);
      return;
    case 7:
      s.start = fixed64Of(r, wire);
      return;
    case 8:
      s.end = fixed64Of(r, wire);
      return;
    case 9:
      keyValuesOf(r, s.attributes, wire, end, 'attributes', 4);
      return;
    case 10:
    case 12:
    case 14:
      s.dropped[(field - 10) / 2] = uint32Of(r, wire);
      return;
    case 11:
      s.events.push(eventOf(r, lengthEnd(r, wire, end)));
      return;
    case 13:
      s.links.push(linkOf(r, lengthEnd(r, wire, end)));
      return;
    case 15:
      statusOf(r, s, lengthEnd(r, wire, end));
      return;
    case 16:
      expectWire(wire, FIXED32);
      s.flags = r.fixed32();
      return;
    default:
      skip(r, wire, end);
  }
}

function statusOf(r: WireReader, s: SpanFields, end: number): void {
  for (let t = nextTag(r, end); t >= 0; t = nextTag(r, end)) {
    if (t >>> 3 === 2) {
      s.statusMessage = stringOf(r, t & 7, end);
    } else if (t >>> 3 === 3) {
      s.statusCode = int32Of(r, t & 7);
    } else {
      skip(r, t & 7, end);
    }
  }
}

function eventOf(r: WireReader, end: number): Json {
  let time = 0n;
  let name = '';
  const attributes: Attributes = {};
  for (let t = nextTag(r, end); t >= 0; t = nextTag(r, end)) {
    if (t >>> 3 === 1) {
      time = fixed64Of(r, t & 7);
    } else if (t >>> 3 === 2) {
      name = stringOf(r, t & 7, end);
    } else if (t >>> 3 === 3) {
      keyValuesOf(r, attributes, t & 7, end, 'events[].attributes', 5);
    } else {
      skip(r, t & 7, end);
    }
  }
  return { timeUnixNano: time.toString(), name: name || null, attributes };
}

// A link's ids are checked after the span's own fields, as `linksOf` does; kept as offsets till then.
interface LinkFields {
  traceId: Span;
  spanId: Span;
  traceState: string | null;
  attributes: Attributes;
}

function linkOf(r: WireReader, end: number): LinkFields {
  const link: LinkFields = {
    traceId: undefined,
    spanId: undefined,
    traceState: null,
    attributes: {},
  };
  for (let t = nextTag(r, end); t >= 0; t = nextTag(r, end)) {
    if (t >>> 3 === 1) {
      link.traceId = bytesAt(r, t & 7, end);
    } else if (t >>> 3 === 2) {
      link.spanId = bytesAt(r, t & 7, end);
    } else if (t >>> 3 === 3) {
      link.traceState = stringOf(r, t & 7, end) || null;
    } else if (t >>> 3 === 4) {
      keyValuesOf(r, link.attributes, t & 7, end, 'links[].attributes', 5);
    } else {
      skip(r, t & 7, end);
    }
  }
  return link;
}

function linksOf(buffer: Buffer, links: LinkFields[]): Json[] {
  return links.map((l) => ({
    traceId: hexOf(buffer, l.traceId, 16, 'links[].traceId'),
    spanId: hexOf(buffer, l.spanId, 8, 'links[].spanId'),
    traceState: l.traceState,
    attributes: l.attributes,
  }));
}
