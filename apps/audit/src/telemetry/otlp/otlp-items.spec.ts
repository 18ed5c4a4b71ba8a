import { readLogs, readSpans } from './otlp-items';
import { MalformedOtlp } from './otlp-values';

const NOW = 1_765_000_000_000n * 1_000_000n;
const TRACE = '5b8efff798038103d269b633813fc60c';
const SPAN = 'eee19b7ec3c1b174';

function traces(span: Record<string, unknown>): unknown {
  return {
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'agent' } }] },
        scopeSpans: [{ scope: { name: 's' }, spans: [span] }],
      },
    ],
  };
}

const base = {
  traceId: TRACE,
  spanId: SPAN,
  name: 'call',
  startTimeUnixNano: String(NOW),
  endTimeUnixNano: String(NOW + 1_000n),
};

describe(readSpans.name, () => {
  it('should read OTLP/JSON: hex ids, enums as integers, 64-bit integers as strings', () => {
    const sut = readSpans(
      traces({
        ...base,
        kind: 2,
        status: { code: 2, message: 'boom' },
        attributes: [
          { key: 'big', value: { intValue: '9007199254740993' } },
          { key: 'small', value: { intValue: '7' } },
          {
            key: 'list',
            value: { arrayValue: { values: [{ boolValue: true }, { doubleValue: 1.5 }] } },
          },
        ],
      }),
      NOW,
    );

    expect(sut.rejected).toBe(0);
    expect(sut.items[0]).toMatchObject({
      traceId: TRACE,
      spanId: SPAN,
      kind: 2,
      statusCode: 2,
      statusMessage: 'boom',
      startUnixNano: String(NOW),
      serviceName: 'agent',
      attributes: { big: '9007199254740993', small: 7, list: [true, 1.5] },
    });
  });

  it('should read ids given as bytes, as the protobuf decoder gives them', () => {
    const sut = readSpans(
      traces({ ...base, traceId: Buffer.from(TRACE, 'hex'), spanId: Buffer.from(SPAN, 'hex') }),
      NOW,
    );

    expect(sut.items[0]).toMatchObject({ traceId: TRACE, spanId: SPAN });
  });

  it.each([
    ['a span id of the wrong length', { spanId: 'abcd' }, 'spanId must be 8 bytes'],
    ['an all-zero trace id', { traceId: '0'.repeat(32) }, 'traceId must be 16 bytes'],
    ['an enum given by name', { kind: 'SPAN_KIND_SERVER' }, 'kind must be an integer'],
    ['a start a week before the clock', { startTimeUnixNano: '1000' }, 'a week behind'],
    ['an end before its start', { endTimeUnixNano: String(NOW - 1n) }, 'must not be before'],
    ['text PostgreSQL cannot hold', { name: 'a\u0000b' }, 'NUL'],
  ])('should reject %s and count it', (_label, change, reason) => {
    const sut = readSpans(traces({ ...base, ...change }), NOW);

    expect(sut).toEqual({ items: [], rejected: 1, firstReason: expect.stringContaining(reason) });
  });

  it.each([
    ['a body that is not an object', 'spans'],
    ['resourceSpans that is not a list', { resourceSpans: {} }],
    ['a span that is not an object', { resourceSpans: [{ scopeSpans: [{ spans: [1] }] }] }],
  ])('should refuse %s as malformed', (_label, request) => {
    expect(() => readSpans(request, NOW)).toThrow(MalformedOtlp);
  });
});

describe(readLogs.name, () => {
  it('should place a record without a time at its observed time and keep its body', () => {
    const sut = readLogs(
      {
        resourceLogs: [
          {
            scopeLogs: [
              {
                logRecords: [
                  {
                    observedTimeUnixNano: String(NOW),
                    severityNumber: 9,
                    body: { kvlistValue: { values: [{ key: 'k', value: { stringValue: 'v' } }] } },
                  },
                ],
              },
            ],
          },
        ],
      },
      NOW,
    );

    expect(sut.items[0]).toMatchObject({
      logTime: new Date(Number(NOW / 1_000_000n)).toISOString(),
      timeUnixNano: '0',
      severityNumber: 9,
      body: { k: 'v' },
      traceId: null,
    });
  });
  it('should reject a record whose flags pass a signed 32-bit integer, keeping the others', () => {
    const record = (flags: number): object => ({ observedTimeUnixNano: String(NOW), flags });

    const sut = readLogs(
      { resourceLogs: [{ scopeLogs: [{ logRecords: [record(0x80000000), record(1)] }] }] },
      NOW,
    );

    expect(sut.items.map((item) => item.flags)).toEqual([1]);
    expect(sut).toMatchObject({
      rejected: 1,
      firstReason: 'flags must be an integer from 0 to 2147483647',
    });
  });
});
