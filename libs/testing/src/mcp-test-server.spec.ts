import { McpTestClient, connectMcpClient, toolText as firstText } from './mcp-test-client';
import { startMcpTestServer } from './mcp-test-server';
import {
  MCP_TEST_SECRET,
  MCP_TEST_TOOLS,
  McpTestServer,
  mcpLargeText,
  sha256,
} from './mcp-test-tools';

describe.each([
  { jsonResponse: false, stateless: false, label: 'SSE responses' },
  { jsonResponse: true, stateless: false, label: 'JSON responses' },
  { jsonResponse: false, stateless: true, label: 'SSE responses, stateless' },
  { jsonResponse: true, stateless: true, label: 'JSON responses, stateless' },
])('startMcpTestServer with $label', ({ jsonResponse, stateless }) => {
  let sut: McpTestServer;
  let agent: McpTestClient;

  beforeAll(async () => {
    sut = await startMcpTestServer({ jsonResponse, stateless });
    agent = await connectMcpClient(sut.url, { headers: { 'x-probe': 'kept' } });
  });

  afterAll(async () => {
    await agent?.close();
    await sut?.close();
  });

  it('should list every tool when the SDK client asks', async () => {
    const { tools } = await agent.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...MCP_TEST_TOOLS].sort());
  });

  it('should record the arguments and headers it received when echo is called', async () => {
    const result = await agent.client.callTool({ name: 'echo', arguments: { note: 'hello' } });
    expect(JSON.parse(firstText(result))).toEqual({ received: { note: 'hello' } });
    expect(sut.calls.at(-1)).toMatchObject({
      tool: 'echo',
      arguments: { note: 'hello' },
      headers: { 'x-probe': 'kept' },
    });
  });

  it('should answer a secret when get_config is called', async () => {
    const result = await agent.client.callTool({ name: 'get_config', arguments: {} });
    expect(firstText(result)).toContain(MCP_TEST_SECRET);
  });

  it('should answer a large result whole when large_report is called', async () => {
    const bytes = 500 * 1024;
    const result = await agent.client.callTool({ name: 'large_report', arguments: { bytes } });
    expect(sha256(firstText(result))).toBe(sha256(mcpLargeText(bytes)));
  });

  it('should give a session id only when it is stateful', () => {
    expect(agent.transport.sessionId === undefined).toBe(stateless);
  });

  it('should send one progress notification per step when the caller asks for progress', async () => {
    const progress: number[] = [];
    const result = await agent.client.callTool(
      { name: 'count_with_progress', arguments: { steps: 4 } },
      undefined,
      { onprogress: (p) => progress.push(p.progress) },
    );
    expect(firstText(result)).toBe('counted to 4');
    // A JSON response carries no notifications; an SSE stream carries them before the result.
    expect(progress).toEqual(jsonResponse ? [] : [1, 2, 3, 4]);
  });
});

// A server-to-client request travels on the call's SSE stream, which JSON responses do not have.
describe('startMcpTestServer with SSE responses and sampling', () => {
  let sut: McpTestServer;
  let agent: McpTestClient;

  beforeAll(async () => {
    sut = await startMcpTestServer();
    agent = await connectMcpClient(sut.url);
  });

  afterAll(async () => {
    await agent?.close();
    await sut?.close();
  });

  it('should ask the client for a completion when summarize_with_client is called on an SSE stream', async () => {
    const result = await agent.client.callTool({
      name: 'summarize_with_client',
      arguments: { topic: 'the quarter' },
    });
    expect(JSON.parse(firstText(result))).toEqual({ summary: 'summary of Summarize: the quarter' });
    expect(agent.samplingPrompts).toContain('Summarize: the quarter');
  });
});
