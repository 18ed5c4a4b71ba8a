import { REFUSALS } from './refusal-codes';

describe('REFUSALS', () => {
  const refusals = Object.values(REFUSALS);

  it('should give every refusal a code of its own outside the JSON-RPC reserved range', () => {
    const codes = refusals.map((r) => r.code);

    expect(new Set(codes).size).toBe(codes.length);
    // D41: −32768 … −32000 is JSON-RPC's, and the MCP SDK and A2A use parts of it.
    expect(codes.filter((code) => code >= -32768 && code <= -32000)).toEqual([]);
  });

  it('should give every refusal a stable name of its own', () => {
    const names = refusals.map((r) => r.agpCode);

    expect(new Set(names).size).toBe(names.length);
  });

  it('should hold the codes D41, D60 and D61 name', () => {
    expect(Object.fromEntries(refusals.map((r) => [r.agpCode, r.code]))).toMatchObject({
      blocked_by_policy: -31001,
      policy_error: -31002,
      review_rejected: -31003,
      review_pending: -31004,
      kill_switch: -31005,
      budget_exceeded: -31006,
      payment_refused: -31007,
      licence_invalid: -31008,
      installation_suspended: -31009,
      stream_incomplete: -31010,
      rate_limited: -31029,
    });
  });
});
