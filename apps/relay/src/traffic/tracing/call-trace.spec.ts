import { CallTrace, forwardedIdsOf } from './call-trace';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const AGENT_SPAN = '00f067aa0ba902b7';
const RELAY_SPAN = 'b7ad6b7169203331';

describe('CallTrace (traffic.md T89)', () => {
  it('should forward the agent’s traceparent and tracestate unchanged while the relay has no span', () => {
    const trace = CallTrace.of({
      traceparent: `00-${TRACE}-${AGENT_SPAN}-01`,
      tracestate: 'vendor=a1,other=b2',
    });

    expect(trace.ids).toEqual({ traceId: TRACE, spanId: AGENT_SPAN });
    expect(trace.upstreamHeaders()).toEqual({
      traceparent: `00-${TRACE}-${AGENT_SPAN}-01`,
      tracestate: 'vendor=a1,other=b2',
    });
  });

  it('should forward the relay’s request hop span as the parent, keeping the agent’s state and flags', () => {
    const trace = CallTrace.of({
      traceparent: `00-${TRACE}-${AGENT_SPAN}-00`,
      tracestate: 'vendor=a1',
    });
    trace.upstreamParent = { ...trace.agentContext!, spanId: RELAY_SPAN, isRemote: false };

    expect(trace.upstreamHeaders()).toEqual({
      traceparent: `00-${TRACE}-${RELAY_SPAN}-00`,
      tracestate: 'vendor=a1',
    });
    expect(forwardedIdsOf(trace)).toEqual({ traceId: TRACE, spanId: RELAY_SPAN });
    expect(trace.ids).toEqual({ traceId: TRACE, spanId: AGENT_SPAN });
  });

  it.each([
    ['an all-zero trace id', `00-${'0'.repeat(32)}-${AGENT_SPAN}-01`],
    ['an all-zero span id', `00-${TRACE}-${'0'.repeat(16)}-01`],
    ['upper-case hex', `00-${TRACE.toUpperCase()}-${AGENT_SPAN}-01`],
    ['version ff', `ff-${TRACE}-${AGENT_SPAN}-01`],
    ['a short trace id', `00-${TRACE.slice(2)}-${AGENT_SPAN}-01`],
  ])('should treat %s as no trace context at all', (_why, traceparent) => {
    const trace = CallTrace.of({ traceparent, tracestate: 'vendor=a1' });

    expect(trace.ids).toBeUndefined();
    expect(trace.upstreamHeaders()).toEqual({});
    expect(forwardedIdsOf(trace)).toEqual({});
  });

  it('should carry nothing when the call came without a traceparent', () => {
    expect(CallTrace.of({ tracestate: 'vendor=a1' }).upstreamHeaders()).toEqual({});
  });
});
