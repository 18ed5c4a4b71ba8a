import { SpanView, spanTree } from './telemetry-views';

function span(spanId: string, parentSpanId: string | null, start: number): SpanView {
  return {
    spanId,
    parentSpanId,
    startTimeUnixNano: String(start),
    name: spanId,
  } as SpanView;
}

describe(spanTree.name, () => {
  it('should order depth-first with children by start time, an unknown parent making a root', () => {
    const sut = spanTree([
      span('b', 'a', 3),
      span('a', null, 1),
      span('c', 'a', 2),
      span('orphan', 'gone', 0),
      span('d', 'c', 4),
    ]);

    expect(sut.map((s) => [s.spanId, s.depth])).toEqual([
      ['orphan', 0],
      ['a', 0],
      ['c', 1],
      ['d', 2],
      ['b', 1],
    ]);
  });

  it('should still show spans whose parents name each other in a cycle, once each', () => {
    const sut = spanTree([span('x', 'y', 1), span('y', 'x', 2)]);

    expect(sut.map((s) => [s.spanId, s.depth])).toEqual([
      ['x', 0],
      ['y', 1],
    ]);
  });
});
