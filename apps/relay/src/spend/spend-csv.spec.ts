import { SPEND_CSV_COLUMNS, csvCell, spendCsv } from './spend-csv';
import { SpendEntry } from './spend.types';

describe('spend CSV', () => {
  it('should quote what RFC 4180 quotes and defuse formulas, leaving numbers alone', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('-1.5')).toBe('-1.5');
    expect(csvCell(null)).toBe('');
    expect(csvCell(42)).toBe('42');
  });

  it('should write a payment and an LLM call side by side under one header', () => {
    const base: SpendEntry = {
      id: 'e1',
      tenantId: 't',
      kind: 'LLM',
      occurredAt: '2026-12-07T10:00:00.000Z',
      agentId: 'a',
      subscriptionId: null,
      llmGatewayId: 'g',
      llmProviderId: 'p',
      model: 'gpt',
      payee: null,
      amountUsd: '0.0025',
      promptTokens: 10,
      completionTokens: 5,
      cachedTokens: 0,
      totalTokens: 15,
      correlationId: 'c1',
      eventId: 'ev1',
      details: {},
    };
    const payment: SpendEntry = {
      ...base,
      kind: 'PAYMENT',
      llmGatewayId: null,
      llmProviderId: null,
      model: null,
      payee: { type: 'MCP_SERVER', id: 's', label: 'Weather, paid' },
      amountUsd: '0.01',
      promptTokens: 0,
      completionTokens: 0,
      totalTokens: 0,
      details: {
        asset: 'USDC',
        network: 'base',
        payTo: '0xabc',
        scheme: 'exact',
        amountAtomic: '10000',
      },
    };
    const lines = spendCsv([base, payment]).split('\r\n');
    expect(lines[0].split(',')).toEqual([...SPEND_CSV_COLUMNS]);
    expect(lines[1]).toContain(',LLM,0.0025,a,,g,p,gpt,10,5,0,15,');
    expect(lines[2]).toContain(',PAYMENT,0.01,a,');
    expect(lines[2]).toContain('MCP_SERVER,s,"Weather, paid",USDC,base,0xabc,exact,10000,');
    expect(lines[3]).toBe('');
  });
});
