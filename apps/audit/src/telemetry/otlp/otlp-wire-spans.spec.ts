import { Writer, util } from 'protobufjs';

import { readSpans } from './otlp-items';
import { decodeRequest, otlpTypes } from './otlp-proto';
import { readSpansWire } from './otlp-wire-spans';

const NOW = 1_765_000_000_000n * 1_000_000n;
const TRACE = Buffer.from('5b8efff798038103d269b633813fc60c', 'hex');
const SPAN = Buffer.from('eee19b7ec3c1b174', 'hex');

const base = {
  traceId: TRACE,
  spanId: SPAN,
  name: 'call',
  startTimeUnixNano: String(NOW),
  endTimeUnixNano: String(NOW + 1_000n),
};

const resource = {
  attributes: [
    { key: 'service.name', value: { stringValue: 'agent' } },
    { key: 'host', value: { intValue: '9007199254740993' } },
  ],
};

function encoded(request: Record<string, unknown>): Buffer {
  const type = otlpTypes().traces;
  return Buffer.from(type.encode(type.fromObject(request)).finish());
}

function request(spans: object[], scope: object = { name: 's', version: '1' }): Buffer {
  return encoded({ resourceSpans: [{ resource, scopeSpans: [{ scope, spans }] }] });
}

/** What the decoder and reader of A21–A23 make of the same bytes, as the store would write it. */
function viaDecoder(bytes: Buffer): unknown {
  return plain(readSpans(decodeRequest('traces', bytes), NOW));
}

/** The rows as JSON, as the store writes them. */
function viaWire(bytes: Buffer): unknown {
  return plain(readSpansWire(bytes, NOW));
}

const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;

/** protobufjs' `fromObject` has the decoder's limit too: the deep request is encoded in parts. */
function deep(spans: object[]): Buffer {
  const previous = util.recursionLimit;
  util.recursionLimit = 1_000;
  try {
    return request(spans);
  } finally {
    util.recursionLimit = previous;
  }
}

const nested = (depth: number): object =>
  depth === 0 ? { stringValue: 'leaf' } : { arrayValue: { values: [nested(depth - 1)] } };

describe(readSpansWire.name, () => {
  it.each([
    [
      'a span with every field',
      [
        {
          ...base,
          parentSpanId: Buffer.from('0102030405060708', 'hex'),
          traceState: 'k=v',
          flags: 257,
          kind: 3,
          status: { code: 2, message: 'boom' },
          attributes: [
            { key: 'big', value: { intValue: '9007199254740993' } },
            { key: 'negative', value: { intValue: '-42' } },
            { key: 'small', value: { intValue: '7' } },
            { key: 'ratio', value: { doubleValue: 0.25 } },
            { key: 'nan', value: { doubleValue: NaN } },
            { key: 'yes', value: { boolValue: true } },
            { key: 'no', value: { boolValue: false } },
            { key: 'empty', value: { stringValue: '' } },
            { key: 'blob', value: { bytesValue: Buffer.from([0, 255, 7]) } },
            { key: 'none', value: {} },
            { key: 'unset' },
            { key: 'list', value: { arrayValue: { values: [{ boolValue: true }, {}] } } },
            {
              key: 'map',
              value: { kvlistValue: { values: [{ key: 'k', value: { stringValue: 'v' } }] } },
            },
            { key: 'emptyMap', value: { kvlistValue: {} } },
            { key: 'small', value: { stringValue: 'repeated keys keep the last' } },
            { key: 'text', value: { stringValue: 'é ✓ 𝄞' } },
          ],
          events: [
            {
              timeUnixNano: String(NOW),
              name: 'e',
              attributes: [{ key: 'n', value: { intValue: 1 } }],
            },
            {},
          ],
          links: [{ traceId: TRACE, spanId: SPAN, traceState: 't', attributes: [] }, {}],
          droppedAttributesCount: 2,
          droppedLinksCount: 1,
        },
      ],
    ],
    ['spans with nothing optional, and several of them', [base, { ...base, name: 'second' }]],
    ['an id of the wrong length', [{ ...base, spanId: Buffer.from('abcd', 'hex') }, base]],
    ['an all-zero trace id', [{ ...base, traceId: Buffer.alloc(16) }]],
    ['no span id', [{ ...base, spanId: undefined }]],
    ['no name', [{ ...base, name: '' }]],
    ['an end before its start', [{ ...base, endTimeUnixNano: String(NOW - 1n) }]],
    ['a start a week before the clock', [{ ...base, startTimeUnixNano: '1000' }]],
    ['a start more than a day ahead', [{ ...base, startTimeUnixNano: String(NOW * 2n) }]],
    ['an unknown kind', [{ ...base, kind: 9 }]],
    ['a negative kind', [{ ...base, kind: -1 }]],
    ['an unknown status code', [{ ...base, status: { code: 3 } }]],
    ['a NUL in the name', [{ ...base, name: 'a\u0000b' }]],
    ['a NUL in an attribute key', [{ ...base, attributes: [{ key: 'a\u0000', value: {} }] }]],
    [
      'a NUL in an attribute value',
      [{ ...base, attributes: [{ key: 'k', value: { stringValue: 'a\u0000' } }] }],
    ],
    ['a NUL in an event name', [{ ...base, events: [{}, { name: 'e\u0000' }] }]],
    ['a NUL in an event attribute', [{ ...base, events: [{ attributes: [{ key: 'k\u0000' }] }] }]],
    ['a NUL in a link trace state', [{ ...base, links: [{ traceState: 't\u0000' }] }]],
    ['a NUL in the status message', [{ ...base, status: { message: 'm\u0000' } }]],
    [
      'a __proto__ attribute',
      [
        {
          ...base,
          attributes: [
            {
              key: '__proto__',
              value: { kvlistValue: { values: [{ key: 'x', value: { boolValue: true } }] } },
            },
          ],
        },
      ],
    ],
    ['an attribute without a key', [{ ...base, attributes: [{ value: { stringValue: 'v' } }] }]],
    ['an event attribute without a key', [{ ...base, events: [{ attributes: [{}] }] }]],
    ['a link with a short trace id', [{ ...base, links: [{ traceId: SPAN }] }]],
    [
      'an attribute nested 47 deep',
      [{ ...base, attributes: [{ key: 'deep', value: nested(47) }] }],
    ],
    [
      'an event attribute nested 47 deep',
      [{ ...base, events: [{ attributes: [{ key: 'd', value: nested(47) }] }] }],
    ],
  ])('should read %s as the decoder and reader do', (_label, spans) => {
    const bytes = request(spans);

    expect(viaWire(bytes)).toEqual(viaDecoder(bytes));
  });

  it.each([
    ['a scope with a NUL', { name: 'bad\u0000' }],
    ['a scope attribute without a key', { attributes: [{ value: {} }] }],
    ['no scope', undefined],
  ])(
    'should read %s as the decoder and reader do, for every span of the group',
    (_label, scope) => {
      const bytes = request([base, base], scope);

      expect(viaWire(bytes)).toEqual(viaDecoder(bytes));
    },
  );

  it('should reject a span whose flags pass a signed 32-bit integer, as the decoder and reader do', () => {
    const bytes = request([
      { ...base, flags: 0x80000000 },
      { ...base, flags: 0x7fffffff },
    ]);

    const sut = readSpansWire(bytes, NOW);

    expect(sut.items.map((span) => span.flags)).toEqual([0x7fffffff]);
    expect(sut.firstReason).toContain('flags');
    expect(viaWire(bytes)).toEqual(viaDecoder(bytes));
  });

  it('should reject a span with a NUL deep in an attribute as the decoder and reader do', () => {
    const map = (value: object): object => ({ kvlistValue: { values: [{ key: 'k', value }] } });
    const bytes = request([
      { ...base, attributes: [{ key: 'deep', value: map(map({ stringValue: '\u0000' })) }] },
      base,
    ]);

    expect(viaWire(bytes)).toEqual(viaDecoder(bytes));
    expect(viaWire(bytes)).toMatchObject({ rejected: 1, items: [{ name: 'call' }] });
  });

  it('should read several resources and scopes, and a resource without a service', () => {
    const bytes = encoded({
      resourceSpans: [
        { resource, scopeSpans: [{ scope: { name: 'a' }, spans: [base] }, { spans: [base] }] },
        { scopeSpans: [{ spans: [base] }] },
        { resource: { attributes: [{ value: {} }] }, scopeSpans: [{ spans: [base] }] },
        {},
      ],
    });

    expect(viaWire(bytes)).toEqual(viaDecoder(bytes));
  });

  it('should find the resource and the scope written after their spans, and skip unknown fields', () => {
    const t = otlpTypes().traces;
    const spanType = t.lookupType('opentelemetry.proto.trace.v1.Span');
    const span = spanType.encode(spanType.fromObject(base)).finish();
    const scope = Buffer.from([0x0a, 0x01, 0x73]); // name "s"
    const resourceBytes = t
      .lookupType('opentelemetry.proto.resource.v1.Resource')
      .encode(resource)
      .finish();
    const scopeSpans = new Writer()
      .uint32((2 << 3) | 2)
      .bytes(span)
      .uint32((99 << 3) | 0)
      .uint32(5) // an unknown field
      .uint32((1 << 3) | 2)
      .bytes(scope)
      .finish();
    const resourceSpans = new Writer()
      .uint32((2 << 3) | 2)
      .bytes(scopeSpans)
      .uint32((1 << 3) | 2)
      .bytes(resourceBytes)
      .finish();
    const bytes = Buffer.from(
      new Writer()
        .uint32((1 << 3) | 2)
        .bytes(resourceSpans)
        .finish(),
    );

    const sut = readSpansWire(bytes, NOW);

    expect(plain(sut)).toEqual(viaDecoder(bytes));
    expect(sut.items[0]).toMatchObject({ serviceName: 'agent', scope: { name: 's' } });
  });

  it.each([
    ['bytes cut short', request([base]).subarray(0, 40)],
    ['a length past the end', Buffer.from([0x0a, 0x7f, 0x00])],
    [
      'messages nested past 100',
      deep([{ ...base, attributes: [{ key: 'deep', value: nested(48) }] }]),
    ],
    [
      'event messages nested past 100',
      deep([{ ...base, events: [{ attributes: [{ key: 'd', value: nested(48) }] }] }]),
    ],
    [
      'a string that is not UTF-8',
      request([{ ...base, name: 'ab' }]).map((b) => (b === 0x61 ? 0xff : b)),
    ],
    [
      "a resource's schema URL that is not UTF-8",
      encoded({
        resourceSpans: [{ resource, schemaUrl: 'Zr', scopeSpans: [{ spans: [base] }] }],
      }).map((b) => (b === 0x5a ? 0xff : b)),
    ],
    [
      "a scope's schema URL that is not UTF-8",
      encoded({
        resourceSpans: [{ resource, scopeSpans: [{ schemaUrl: 'Zs', spans: [base] }] }],
      }).map((b) => (b === 0x5a ? 0xff : b)),
    ],
  ])('should throw on %s, as the decoder does', (_label, bytes) => {
    expect(() => viaDecoder(Buffer.from(bytes))).toThrow();
    expect(() => readSpansWire(Buffer.from(bytes), NOW)).toThrow();
  });

  /** `bytes` with the first byte of `marker` (ASCII) made 0xff: a string that is not UTF-8. */
  const notUtf8 = (bytes: Buffer, marker: string): Buffer => {
    const copy = Buffer.from(bytes);
    const at = copy.indexOf(marker);
    expect(at).toBeGreaterThanOrEqual(0);
    copy[at] = 0xff;
    return copy;
  };
  const noKey = { value: { stringValue: 'v' } };
  const badText = { key: 'k', value: { stringValue: 'QQQQ' } };

  // protobufjs decodes the whole request before anything is checked, so malformed bytes anywhere
  // make it a 400, even behind an item that would have been rejected.
  it.each([
    [
      'a span: an attribute without a key, then a status message',
      request([{ ...base, attributes: [noKey], status: { message: 'QQQQ' } }, base]),
    ],
    [
      'a span: an attribute without a key, then another attribute',
      request([{ ...base, attributes: [noKey, badText] }]),
    ],
    [
      'a span: a map member without a key, then a string of the same map',
      request([
        {
          ...base,
          attributes: [{ key: 'm', value: { kvlistValue: { values: [noKey, badText] } } }],
        },
      ]),
    ],
    [
      'a resource: an attribute without a key, then another attribute',
      encoded({
        resourceSpans: [
          { resource: { attributes: [noKey, badText] }, scopeSpans: [{ spans: [base] }] },
        ],
      }),
    ],
    [
      'a scope: an attribute without a key, then another attribute',
      request([base], { attributes: [noKey, badText] }),
    ],
    [
      'a span of a scope whose every span is rejected',
      request([{ ...base, name: 'QQQQ' }], { name: 'bad\u0000' }),
    ],
    [
      'a span of a resource whose every span is rejected',
      encoded({
        resourceSpans: [
          {
            resource: { attributes: [noKey] },
            scopeSpans: [{ spans: [{ ...base, name: 'QQQQ' }] }],
          },
        ],
      }),
    ],
  ])('should throw on a string that is not UTF-8 in %s, as the decoder does', (_label, bytes) => {
    const malformed = notUtf8(bytes, 'QQQQ');

    expect(() => viaDecoder(malformed)).toThrow();
    expect(() => readSpansWire(malformed, NOW)).toThrow();
  });

  it('should throw on a malformed resource that a later one of the group follows, as the decoder does', () => {
    const resourceType = otlpTypes().traces.lookupType('opentelemetry.proto.resource.v1.Resource');
    const resourceOf = (value: string): Uint8Array =>
      resourceType.encode({ attributes: [{ key: 'k', value: { stringValue: value } }] }).finish();
    const resourceSpans = new Writer()
      .uint32((1 << 3) | 2)
      .bytes(resourceOf('QQQQ'))
      .uint32((1 << 3) | 2)
      .bytes(resourceOf('good'))
      .finish();
    const bytes = notUtf8(
      Buffer.from(
        new Writer()
          .uint32((1 << 3) | 2)
          .bytes(resourceSpans)
          .finish(),
      ),
      'QQQQ',
    );

    expect(() => viaDecoder(bytes)).toThrow();
    expect(() => readSpansWire(bytes, NOW)).toThrow();
  });

  it('should merge a resource and a scope given twice, as the decoder does', () => {
    const t = otlpTypes().traces;
    const message = (type: string, value: object): Uint8Array => {
      const m = t.lookupType(`opentelemetry.proto.${type}`);
      return m.encode(m.fromObject(value)).finish();
    };
    const scopeSpans = new Writer()
      .uint32((1 << 3) | 2)
      .bytes(message('common.v1.InstrumentationScope', { name: 'first', version: '1' }))
      .uint32((2 << 3) | 2)
      .bytes(message('trace.v1.Span', base))
      .uint32((1 << 3) | 2)
      .bytes(message('common.v1.InstrumentationScope', { name: 'second' }))
      .finish();
    const resourceSpans = new Writer()
      .uint32((1 << 3) | 2)
      .bytes(message('resource.v1.Resource', resource))
      .uint32((2 << 3) | 2)
      .bytes(scopeSpans)
      .uint32((1 << 3) | 2)
      .bytes(message('resource.v1.Resource', { attributes: [badText] }))
      .finish();
    const bytes = Buffer.from(
      new Writer()
        .uint32((1 << 3) | 2)
        .bytes(resourceSpans)
        .finish(),
    );

    const sut = readSpansWire(bytes, NOW);

    expect(plain(sut)).toEqual(viaDecoder(bytes));
    expect(sut.items[0]).toMatchObject({
      serviceName: 'agent',
      resourceAttributes: { k: 'QQQQ' },
      scope: { name: 'second', version: '1' },
    });
  });

  it('should throw on a known field of the wrong wire type', () => {
    const bytes = Buffer.from([0x08, 0x01]); // resource_spans as a varint

    expect(() => readSpansWire(bytes, NOW)).toThrow(/wire type/);
  });
});
