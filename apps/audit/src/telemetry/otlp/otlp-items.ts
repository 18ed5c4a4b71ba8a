import { unacceptableInput } from '@agp/http';

import {
  Json,
  MAX_FLAGS,
  MalformedOtlp,
  Origin,
  RejectedItem,
  attributesOf,
  anyValueOf,
  idOf,
  intOf,
  isRecord,
  listOf,
  nanosOf,
  originOf,
  recordOf,
  textOf,
} from './otlp-values';

export interface SpanItem extends Origin {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  traceState: string | null;
  flags: number;
  name: string;
  kind: number;
  startTime: string;
  startUnixNano: string;
  endUnixNano: string;
  statusCode: number;
  statusMessage: string | null;
  attributes: { [key: string]: Json };
  events: Json[] | null;
  links: Json[] | null;
  dropped: { [key: string]: number } | null;
}

export interface LogItem extends Origin {
  logTime: string;
  timeUnixNano: string;
  observedUnixNano: string;
  severityNumber: number;
  severityText: string | null;
  eventName: string | null;
  body: Json;
  traceId: string | null;
  spanId: string | null;
  flags: number;
  attributes: { [key: string]: Json };
  droppedAttributes: number;
}

/** What an export request holds: the items to store, and those refused with the first reason. */
export interface ReadItems<T> {
  items: T[];
  rejected: number;
  firstReason?: string;
}

const DAY_NS = 86_400_000_000_000n;
/** Bounds on an item's time (A23): a day ahead for skewed clocks, a week back for queues. */
const FUTURE_NS = DAY_NS;
const PAST_NS = 7n * DAY_NS;

export function timeOf(nanos: bigint, field: string, now: bigint): string {
  if (nanos > now + FUTURE_NS || nanos < now - PAST_NS) {
    throw new RejectedItem(`${field} is more than a day ahead or a week behind the clock`);
  }
  return new Date(Number(nanos / 1_000_000n)).toISOString();
}

function countsOf(
  record: Record<string, unknown>,
  fields: string[],
): Record<string, number> | null {
  const counts: Record<string, number> = {};
  for (const field of fields) {
    const n = intOf(record[field], field);
    if (n > 0) {
      counts[field.replace(/Count$/, '')] = n;
    }
  }
  return Object.keys(counts).length > 0 ? counts : null;
}

function spanOf(span: Record<string, unknown>, origin: Origin, now: bigint): SpanItem {
  const traceId = idOf(span.traceId, 16, 'traceId');
  const spanId = idOf(span.spanId, 8, 'spanId');
  if (!traceId || !spanId) {
    throw new RejectedItem('traceId and spanId are required');
  }
  const name = textOf(span.name, 'name');
  if (!name) {
    throw new RejectedItem('name is required');
  }
  const start = nanosOf(span.startTimeUnixNano, 'startTimeUnixNano');
  const end = nanosOf(span.endTimeUnixNano, 'endTimeUnixNano');
  if (end < start) {
    throw new RejectedItem('endTimeUnixNano must not be before startTimeUnixNano');
  }
  const status = recordOf(span.status, 'status');
  // One object literal of one shape per item (not a spread of origin and item): the reader's
  // allocations were most of its time (A41).
  return {
    resourceAttributes: origin.resourceAttributes,
    serviceName: origin.serviceName,
    scope: origin.scope,
    traceId,
    spanId,
    parentSpanId: idOf(span.parentSpanId, 8, 'parentSpanId'),
    traceState: textOf(span.traceState, 'traceState'),
    flags: intOf(span.flags, 'flags', MAX_FLAGS),
    name,
    kind: intOf(span.kind, 'kind', 5),
    startTime: timeOf(start, 'startTimeUnixNano', now),
    startUnixNano: start.toString(),
    endUnixNano: end.toString(),
    statusCode: intOf(status.code, 'status.code', 2),
    statusMessage: textOf(status.message, 'status.message'),
    attributes: attributesOf(span.attributes),
    events: eventsOf(span.events),
    links: linksOf(span.links),
    dropped: countsOf(span, ['droppedAttributesCount', 'droppedEventsCount', 'droppedLinksCount']),
  };
}

function eventsOf(value: unknown): Json[] | null {
  const events = listOf(value, 'events').map((event) => {
    const e = recordOf(event, 'events[]');
    return {
      timeUnixNano: nanosOf(e.timeUnixNano, 'events[].timeUnixNano').toString(),
      name: textOf(e.name, 'events[].name'),
      attributes: attributesOf(e.attributes, 'events[].attributes'),
    };
  });
  return events.length > 0 ? events : null;
}

function linksOf(value: unknown): Json[] | null {
  const links = listOf(value, 'links').map((link) => {
    const l = recordOf(link, 'links[]');
    return {
      traceId: idOf(l.traceId, 16, 'links[].traceId'),
      spanId: idOf(l.spanId, 8, 'links[].spanId'),
      traceState: textOf(l.traceState, 'links[].traceState'),
      attributes: attributesOf(l.attributes, 'links[].attributes'),
    };
  });
  return links.length > 0 ? links : null;
}

function logOf(log: Record<string, unknown>, origin: Origin, now: bigint, at: bigint): LogItem {
  const time = nanosOf(log.timeUnixNano, 'timeUnixNano');
  const observed = nanosOf(log.observedTimeUnixNano, 'observedTimeUnixNano');
  // The data model: a record without a time is placed at when it was observed, else received.
  const placed = time || observed || at;
  return {
    resourceAttributes: origin.resourceAttributes,
    serviceName: origin.serviceName,
    scope: origin.scope,
    logTime: timeOf(placed, time ? 'timeUnixNano' : 'observedTimeUnixNano', now),
    timeUnixNano: time.toString(),
    observedUnixNano: (observed || at).toString(),
    severityNumber: intOf(log.severityNumber, 'severityNumber', 24),
    severityText: textOf(log.severityText, 'severityText'),
    eventName: textOf(log.eventName, 'eventName'),
    body: anyValueOf(log.body),
    traceId: idOf(log.traceId, 16, 'traceId'),
    spanId: idOf(log.spanId, 8, 'spanId'),
    flags: intOf(log.flags, 'flags', MAX_FLAGS),
    attributes: attributesOf(log.attributes),
    droppedAttributes: intOf(log.droppedAttributesCount, 'droppedAttributesCount'),
  };
}

function readItems<T extends Origin>(
  request: unknown,
  lists: { resources: string; scopes: string; items: string },
  read: (item: Record<string, unknown>, origin: Origin) => T,
  ownText: (item: T) => object,
): ReadItems<T> {
  if (!isRecord(request)) {
    throw new MalformedOtlp('the body must be an export request object');
  }
  const groups: Array<{ items: unknown[]; origin: () => Origin }> = [];
  for (const resourceGroup of listOf(request[lists.resources], lists.resources)) {
    const r = recordOf(resourceGroup, lists.resources);
    const resource = recordOf(r.resource, 'resource');
    for (const scopeGroup of listOf(r[lists.scopes], lists.scopes)) {
      const s = recordOf(scopeGroup, lists.scopes);
      const scope = recordOf(s.scope, 'scope');
      const items = listOf(s[lists.items], lists.items);
      if (items.some((item) => !isRecord(item))) {
        throw new MalformedOtlp(`${lists.items} must hold objects`);
      }
      groups.push({
        items,
        origin: () => {
          const origin = originOf(resource, scope);
          checked(origin);
          return origin;
        },
      });
    }
  }
  const result: ReadItems<T> = { items: [], rejected: 0 };
  for (const group of groups) {
    let origin: Origin | undefined;
    for (const item of group.items) {
      try {
        origin ??= group.origin();
        const own = read(item as Record<string, unknown>, origin);
        checked(ownText(own));
        result.items.push(own);
      } catch (error) {
        if (!(error instanceof RejectedItem)) {
          throw error;
        }
        result.rejected += 1;
        result.firstReason ??= error.message;
      }
    }
  }
  return result;
}

/** The input guard (F23) over what an item brings: a finding rejects the item, not the request. */
export function checked(value: object): void {
  const bad = unacceptableInput(value);
  if (bad) {
    throw new RejectedItem(`${bad.field} ${bad.message}`);
  }
}

// What the input guard (F23) walks of an item: the text it brings beyond its checked ids and
// numbers; its origin was guarded once for its group.
export const spanText = (s: SpanItem): object => ({
  name: s.name,
  traceState: s.traceState,
  status: s.statusMessage,
  attributes: s.attributes,
  events: s.events,
  links: s.links,
});

const logText = (l: LogItem): object => ({
  severityText: l.severityText,
  eventName: l.eventName,
  body: l.body,
  attributes: l.attributes,
});

export function readSpans(request: unknown, now = nowNanos()): ReadItems<SpanItem> {
  return readItems(
    request,
    { resources: 'resourceSpans', scopes: 'scopeSpans', items: 'spans' },
    (span, origin) => spanOf(span, origin, now),
    spanText,
  );
}

export function readLogs(request: unknown, now = nowNanos()): ReadItems<LogItem> {
  return readItems(
    request,
    { resources: 'resourceLogs', scopes: 'scopeLogs', items: 'logRecords' },
    (log, origin) => logOf(log, origin, now, now),
    logText,
  );
}

export function nowNanos(): bigint {
  return BigInt(Date.now()) * 1_000_000n;
}
