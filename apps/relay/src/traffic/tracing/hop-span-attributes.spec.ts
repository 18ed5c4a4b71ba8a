import { Hop } from '../pipeline/hop.types';
import { decisionAttributes, hopAttributes, hopSpanName } from './hop-span-attributes';

const AGENT = { type: 'AGENT', id: 'a-1', name: 'support' } as const;
const SERVER = { type: 'MCP_SERVER', id: 's-1', name: 'crm' } as const;

function hop(overrides: Partial<Hop>): Hop {
  return {
    tenantId: 't-1',
    correlationId: 'c-1',
    protocol: 'MCP',
    direction: 'REQUEST',
    source: AGENT,
    sink: SERVER,
    agent: AGENT,
    message: { json: {}, text: '' },
    captureContent: false,
    ...overrides,
  };
}

describe('hop span attributes (traffic.md T91)', () => {
  it('should name an MCP tool call by its method and tool, with the MCP and GenAI conventions', () => {
    const call = hop({
      method: 'tools/call',
      tool: 'lookup_customer',
      details: { jsonRpcId: 7, mcpSessionId: 'sess-1' },
    });

    expect(hopSpanName(call)).toBe('tools/call lookup_customer');
    expect(hopAttributes(call)).toMatchObject({
      'agp.tenant.id': 't-1',
      'mcp.method.name': 'tools/call',
      'mcp.session.id': 'sess-1',
      'jsonrpc.request.id': '7',
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'lookup_customer',
      'gen_ai.agent.id': 'a-1',
    });
  });

  it('should name an LLM chat by its model and count the answer’s tokens', () => {
    const gateway = { type: 'LLM_GATEWAY', id: 'g-1', name: 'openai' } as const;
    const request = hop({
      protocol: 'REST',
      method: 'chat/completions',
      sink: gateway,
      message: { json: { model: 'gpt-4o' }, text: '' },
    });
    const answer = hop({
      protocol: 'REST',
      direction: 'RESPONSE',
      method: 'chat/completions',
      source: gateway,
      sink: AGENT,
      message: {
        json: { model: 'gpt-4o-2024', usage: { prompt_tokens: 12, completion_tokens: 5 } },
        text: '',
      },
    });

    expect(hopSpanName(request)).toBe('chat gpt-4o');
    expect(hopAttributes(request)).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'gpt-4o',
    });
    expect(hopAttributes(answer)).toMatchObject({
      'gen_ai.response.model': 'gpt-4o-2024',
      'gen_ai.usage.input_tokens': 12,
      'gen_ai.usage.output_tokens': 5,
    });
  });

  it('should carry the decision’s action, its audit event and each policy group once', () => {
    const bindings = [{ groupId: 'p-1' }, { groupId: 'p-1' }, { groupId: 'p-2' }];

    expect(decisionAttributes({ action: 'BLOCK', bindings } as never, 'e-1')).toEqual({
      'agp.decision.action': 'BLOCK',
      'agp.decision.id': 'e-1',
      'agp.decision.policy_ids': ['p-1', 'p-2'],
    });
  });
});
