import { randomUUID } from 'node:crypto';

import { ChainedEvent } from '../events/audit-event.types';
import { GENESIS_HASH, chainHash } from './chain-hash';
import { CopyColumn, walkSegment } from './chain-segment';
import { ChainWalk, ChainWalkState } from './chain-walk';
import { segmentsOf } from './segments-of';

const TEXT = 25;
const COLUMNS: CopyColumn[] = [
  ['id', 2950],
  ['tenant_id', 2950],
  ['family', TEXT],
  ['seq', 20],
  ['occurred_at', TEXT],
  ['recorded_at', TEXT],
  ['event_type', TEXT],
  ['protocol', TEXT],
  ['action', TEXT],
  ['actor_type', TEXT],
  ['actor_id', TEXT],
  ['actor_label', TEXT],
  ['source_type', TEXT],
  ['source_id', TEXT],
  ['source_name', TEXT],
  ['sink_type', TEXT],
  ['sink_id', TEXT],
  ['sink_name', TEXT],
  ['policy_ids', TEXT],
  ['decision', 3802],
  ['correlation_id', TEXT],
  ['trace_id', TEXT],
  ['span_id', TEXT],
  ['summary', TEXT],
  ['details', 3802],
  ['content', TEXT],
  ['content_digest', TEXT],
  ['hash', 17],
].map(([name, typeId]) => ({ name: name as string, typeId: typeId as number }));

/** Events whose text holds what COPY escapes (tabs, line breaks, backslashes) and non-ASCII. */
function chain(length: number): ChainedEvent[] {
  const events: ChainedEvent[] = [];
  let previous = GENESIS_HASH;
  for (let seq = 1; seq <= length; seq += 1) {
    const event = {
      id: randomUUID(),
      tenantId: '9b2f7f0e-3a4b-4c5d-8e9f-0a1b2c3d4e5f',
      family: 'TRAFFIC' as const,
      seq,
      occurredAt: '2026-01-01T00:00:00.000Z',
      recordedAt: `2026-01-01T00:00:${String(seq % 60).padStart(2, '0')}.000Z`,
      eventType: 'COMMUNICATION_AUDIT' as const,
      protocol: seq % 2 ? ('MCP' as const) : null,
      action: 'LOG' as const,
      actor: { type: 'AGENT', id: `agent\t${seq}`, label: seq % 3 ? 'Zürich 🎉' : null },
      source: null,
      sink: { type: 'MCP_SERVER', id: 'a\\b', name: 'line\nbreak\r' },
      policyIds: seq % 2 ? [randomUUID(), randomUUID()] : [],
      decision: seq % 4 ? null : { reasons: ['x\ty'], detections: [], masks: [] },
      correlationId: randomUUID(),
      traceId: null,
      spanId: null,
      summary: `call ${seq}, "quoted" \\N`,
      details: { z: [1, 'two\n', null], a: { '10': true, '2': 1.5 } },
      content: null,
      contentDigest: null,
    };
    previous = chainHash(previous, event);
    events.push({ ...event, hash: previous });
  }
  return events;
}

function copyLine(event: ChainedEvent): string {
  const fields = [
    event.id,
    event.tenantId,
    event.family,
    String(event.seq),
    event.occurredAt,
    event.recordedAt,
    event.eventType,
    event.protocol,
    event.action,
    event.actor?.type,
    event.actor?.id,
    event.actor?.label,
    event.source?.type,
    event.source?.id,
    event.source?.name,
    event.sink?.type,
    event.sink?.id,
    event.sink?.name,
    event.policyIds.join(','),
    event.decision && JSON.stringify(event.decision),
    event.correlationId,
    event.traceId,
    event.spanId,
    event.summary,
    event.details && JSON.stringify(event.details),
    event.content,
    event.contentDigest,
    `\\x${event.hash.toString('hex')}`,
  ];
  const escape = (text: string): string =>
    text.replace(
      /[\\\t\n\r\b\f\v]/g,
      (c) =>
        `\\${{ '\\': '\\', '\t': 't', '\n': 'n', '\r': 'r', '\b': 'b', '\f': 'f', '\v': 'v' }[c]}`,
    );
  return `${fields.map((f) => (f === null || f === undefined ? '\\N' : escape(f))).join('\t')}\n`;
}

async function* chunked(text: string, size: number): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += size) {
    yield bytes.subarray(i, i + size);
  }
}

function outcome(walk: ChainWalk): Omit<ChainWalkState, 'startSeq' | 'startHash'> {
  const { startSeq: _seq, startHash: _hash, ...rest } = walk.state();
  return {
    ...rest,
    lastHash: Buffer.from(rest.lastHash),
    hashesAt: rest.hashesAt.map((at) => ({ ...at, hash: Buffer.from(at.hash) })),
  };
}

async function segmentedWalk(
  events: ChainedEvent[],
  segmentBytes: number,
  watched: number[],
): Promise<ChainWalk> {
  const walk = new ChainWalk(0, GENESIS_HASH, new Set(watched));
  let start: { seq: number; hash: Uint8Array } | undefined = { seq: 0, hash: GENESIS_HASH };
  for await (const segment of segmentsOf(
    chunked(events.map(copyLine).join(''), 7),
    segmentBytes,
    COLUMNS,
  )) {
    const inSegment = watched.filter((seq) => seq >= segment.firstSeq && seq <= segment.lastSeq);
    walk.absorb(walkSegment({ columns: COLUMNS, rows: segment.rows, start, watched: inSegment }));
    start = undefined;
  }
  return walk;
}

function singleWalk(events: ChainedEvent[], watched: number[]): ChainWalk {
  const walk = new ChainWalk(0, GENESIS_HASH, new Set(watched));
  events.every((event) => walk.accept(event));
  return walk;
}

describe('chain segments walked apart (A14)', () => {
  const events = chain(40);
  const watched = [10, 20, 30];
  const tampered: Array<[string, ChainedEvent[]]> = [
    ['untouched', events],
    ['a field modified', events.map((e) => (e.seq === 17 ? { ...e, summary: 'edited' } : e))],
    ['an event deleted', events.filter((e) => e.seq !== 21)],
    [
      'an event inserted beside another',
      events.flatMap((e) =>
        e.seq === 12 ? [e, { ...e, id: 'ffffffff-0000-4000-8000-000000000000' }] : [e],
      ),
    ],
    [
      'two events swapped',
      events.map((e, i) =>
        e.seq === 30
          ? { ...events[i + 1], seq: 30 }
          : e.seq === 31
            ? { ...events[i - 1], seq: 31 }
            : e,
      ),
    ],
    [
      'the first event modified',
      events.map((e) => (e.seq === 1 ? { ...e, action: 'BLOCK' as const } : e)),
    ],
    ['the last event modified', events.map((e) => (e.seq === 40 ? { ...e, details: null } : e))],
  ];

  it.each(tampered)(
    'should give the single walk outcome, cut anywhere, with %s',
    async (_case, rows) => {
      const expected = outcome(singleWalk(rows, watched));
      for (const segmentBytes of [1, 500, 1_300, 4_000, 1 << 20]) {
        expect(outcome(await segmentedWalk(rows, segmentBytes, watched))).toEqual(expected);
      }
    },
  );

  it('should verify text that COPY escapes, decoded as the query protocol gives it', async () => {
    const walk = await segmentedWalk(events, 1_000, watched);
    expect(walk.broken).toBeUndefined();
    expect(walk.checked).toBe(40);
    expect([...walk.hashesAt.keys()]).toEqual(watched);
  });
});
