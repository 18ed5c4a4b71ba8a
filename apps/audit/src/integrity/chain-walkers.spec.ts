import { GENESIS_HASH, chainHash } from './chain-hash';
import { CopyColumn, walkSegment } from './chain-segment';
import { ChainWalkers } from './chain-walkers';

const COLUMNS: CopyColumn[] = [
  ['id', 2950],
  ['tenant_id', 2950],
  ['family', 25],
  ['seq', 20],
  ['occurred_at', 25],
  ['recorded_at', 25],
  ['event_type', 25],
  ['protocol', 25],
  ['action', 25],
  ['actor_type', 25],
  ['actor_id', 25],
  ['actor_label', 25],
  ['source_type', 25],
  ['source_id', 25],
  ['source_name', 25],
  ['sink_type', 25],
  ['sink_id', 25],
  ['sink_name', 25],
  ['policy_ids', 25],
  ['decision', 3802],
  ['correlation_id', 25],
  ['trace_id', 25],
  ['span_id', 25],
  ['summary', 25],
  ['details', 3802],
  ['content', 25],
  ['content_digest', 25],
  ['hash', 17],
].map(([name, typeId]) => ({ name: name as string, typeId: typeId as number }));

/** Three chained events as COPY text lines, the second with a wrong stored hash. */
function rows(): Uint8Array {
  let previous = GENESIS_HASH;
  const lines = [1, 2, 3].map((seq) => {
    const event = {
      id: `00000000-0000-4000-8000-00000000000${seq}`,
      tenantId: '00000000-0000-4000-8000-0000000000aa',
      family: 'TRAFFIC' as const,
      seq,
      occurredAt: '2026-01-01T00:00:00.000Z',
      recordedAt: '2026-01-01T00:00:01.000Z',
      eventType: 'COMMUNICATION_AUDIT' as const,
      protocol: null,
      action: null,
      actor: null,
      source: null,
      sink: null,
      policyIds: [],
      decision: null,
      correlationId: null,
      traceId: null,
      spanId: null,
      summary: `event ${seq}`,
      details: null,
      content: null,
      contentDigest: null,
    };
    previous = seq === 2 ? Buffer.alloc(32, 7) : chainHash(previous, event);
    const fields = [
      event.id,
      event.tenantId,
      event.family,
      String(seq),
      event.occurredAt,
      event.recordedAt,
      event.eventType,
    ];
    return [
      ...fields,
      ...Array<string>(11).fill('\\N'),
      '',
      ...Array<string>(4).fill('\\N'),
      event.summary,
      '\\N',
      '\\N',
      '\\N',
      `\\\\x${previous.toString('hex')}`,
    ].join('\t');
  });
  return new Uint8Array(Buffer.from(`${lines.join('\n')}\n`));
}

describe(ChainWalkers.name, () => {
  const sut = new ChainWalkers();

  afterAll(() => sut.onModuleDestroy());

  it('should walk a segment on a worker thread exactly as walkSegment does in this one', async () => {
    const start = { seq: 0, hash: GENESIS_HASH };
    const here = walkSegment({ columns: COLUMNS, rows: rows(), start, watched: [1] });
    const there = await sut.walk({ columns: COLUMNS, rows: rows(), start, watched: [1] });
    expect(here.broken).toEqual({
      reason: 'HASH_MISMATCH',
      eventId: '00000000-0000-4000-8000-000000000002',
      recordedAt: '2026-01-01T00:00:01.000Z',
    });
    expect({
      ...there,
      startHash: Buffer.from(there.startHash),
      lastHash: Buffer.from(there.lastHash),
      hashesAt: there.hashesAt.map((at) => ({ ...at, hash: Buffer.from(at.hash) })),
    }).toEqual(here);
  });

  it('should reject a segment its thread cannot walk, and keep walking the next ones', async () => {
    await expect(
      sut.walk({ columns: COLUMNS, rows: new Uint8Array(0), watched: [] }),
    ).rejects.toThrow('chain segment walk failed');
    await expect(
      sut.walk({
        columns: COLUMNS,
        rows: rows(),
        start: { seq: 0, hash: GENESIS_HASH },
        watched: [],
      }),
    ).resolves.toMatchObject({ checked: 2 });
  });

  it('should stop its threads once idle, and start them again for the next walk', async () => {
    const walkers = new ChainWalkers();
    walkers.idleMs = 50;
    const job = {
      columns: COLUMNS,
      rows: rows(),
      start: { seq: 0, hash: GENESIS_HASH },
      watched: [],
    };
    await walkers.walk(job);
    expect(walkers.running).toBe(walkers.size);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(walkers.running).toBe(0);
    await expect(walkers.walk({ ...job, rows: rows() })).resolves.toMatchObject({ checked: 2 });
    await walkers.onModuleDestroy();
  });
});
