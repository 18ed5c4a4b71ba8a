import { JsonRpcMessage } from '../json-rpc';
import {
  heldCallOf,
  inputKeyOf,
  inputRequiredOf,
  isInputRetry,
  requestBindingOf,
} from './input-requests';
import { envelopeOf, isUnaskedLog } from './revision-wire';

const call = (params: Record<string, unknown>): JsonRpcMessage => ({
  jsonrpc: '2.0',
  id: 7,
  method: 'tools/call',
  params,
});

const elicit: JsonRpcMessage = {
  jsonrpc: '2.0',
  id: 3,
  method: 'elicitation/create',
  params: { message: 'Keep invoice?', requestedSchema: { type: 'object' } },
};

describe('MCP input requests across revisions (T102)', () => {
  it('should bind a retry to its call whatever answers, state or envelope it adds', () => {
    const first = call({ name: 'act', arguments: { what: 'invoice' } });
    const retry = call({
      name: 'act',
      arguments: { what: 'invoice' },
      inputResponses: { k: { action: 'accept' } },
      requestState: '{"agpHeldCall":"agp-held-1"}',
      _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' },
    });
    const changed = call({ name: 'act', arguments: { what: 'everything' }, inputResponses: {} });

    expect(requestBindingOf(retry)).toBe(requestBindingOf(first));
    expect(requestBindingOf(changed)).not.toBe(requestBindingOf(first));
    expect([isInputRetry(first), isInputRetry(retry), isInputRetry(changed)]).toEqual([
      false,
      true,
      true,
    ]);
  });

  it('should name the held call in the state of an InputRequiredResult and read it back', () => {
    const result = inputRequiredOf(7, elicit, 'agp-held-9');
    const state = (result.result as { requestState: string }).requestState;
    const requests = (result.result as { inputRequests: Record<string, unknown> }).inputRequests;

    expect(Object.keys(requests)).toEqual([inputKeyOf(elicit)]);
    expect(heldCallOf(call({ requestState: state }))).toBe('agp-held-9');
    expect(heldCallOf(call({ requestState: 'not json' }))).toBeUndefined();
    expect(heldCallOf(call({ requestState: '{"agpHeldCall":5}' }))).toBeUndefined();
  });
});

describe('MCP log levels across revisions (T104)', () => {
  const log: JsonRpcMessage = { jsonrpc: '2.0', method: 'notifications/message', params: {} };

  it('should withhold a log message from a 2026 request that asked for no level', () => {
    const leveled = call({ _meta: { 'io.modelcontextprotocol/logLevel': 'warning' } });
    const invalid = call({ _meta: { 'io.modelcontextprotocol/logLevel': 'loud' } });

    expect(envelopeOf(leveled).logLevel).toBe('warning');
    expect(envelopeOf(invalid).logLevel).toBeUndefined();
    expect(isUnaskedLog(log, leveled)).toBe(false);
    expect(isUnaskedLog(log, call({}))).toBe(true);
    expect(isUnaskedLog(log, invalid)).toBe(true);
    expect(isUnaskedLog({ ...log, method: 'notifications/progress' }, call({}))).toBe(false);
  });
});
