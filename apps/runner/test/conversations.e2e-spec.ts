import { randomUUID } from 'node:crypto';

import {
  A2aTestAgent,
  McpTestServer,
  eventually,
  startA2aTestAgent,
  startMcpTestServer,
} from '@agp/testing';

import { A2aWorld } from './a2a/a2a-world';
import { BOT_TOKEN, ChannelWorld } from './channels/channel-world';
import { SlackStandIn, slackMessageEvent } from './channels/slack-stand-in';
import { HumanWorld, TestPerson, messageSend } from './human/human-world';
import { McpPlatform, PlatformMode, startMcpPlatform } from './mcp/mcp-platform';
import { LOG_POLICY } from './mcp/mcp-policies';
import { Json, McpWorld, TestAgent } from './mcp/mcp-world';
import { RawMcpSession } from './mcp/raw-mcp-session';

/** Stops an operator's message that says "forbidden", whichever way it goes (CV10). */
const OPERATOR_BLOCK_POLICY = `package conversations.block

import rego.v1

decision := {"action": "BLOCK", "reasons": ["operators may not say that"]} if {
	input.source.type == "USER"
	contains(input.message.text, "forbidden")
}
`;

interface Conversation {
  id: string;
  keyKind: string;
  key: string;
  hopCount: number;
  protocols: string[];
  agentIds: string[];
  userIds: string[];
  channelIds: string[];
  mcpServerIds: string[];
  messages: Json[];
  nextCursor?: string;
}

/**
 * Issue 34 § 1 (D44, D57): the hops of one exchange read back as a conversation, across a person,
 * an agent and an MCP server, from the audit trail's index; an operator's message judged by the
 * hop pipeline and delivered once into the conversation's own thread or agent.
 */
describe.each<PlatformMode>(['services', 'embedded'])('conversations (%s)', (mode) => {
  let platform: McpPlatform;
  let agent: A2aTestAgent;
  let tools: McpTestServer;
  let slack: SlackStandIn;
  let world: McpWorld;
  let humans: HumanWorld;
  let channels: ChannelWorld;
  let serverId: string;

  beforeAll(async () => {
    platform = await startMcpPlatform(mode);
    agent = await startA2aTestAgent({ legacyCompat: true });
    tools = await startMcpTestServer();
    slack = await SlackStandIn.start(BOT_TOKEN);
    world = await McpWorld.create(platform);
    humans = new HumanWorld(world);
    channels = new ChannelWorld(world, new A2aWorld(world), agent.cardUrl, slack.apiBaseUrl);
    serverId = await world.mcpServer(tools.url);
    await world.ok('PATCH', '/relay/v1/traffic-settings', { contentCapture: true });
    await world.ok('PUT', '/audit/v1/retention', { captureContent: true });
  }, 120_000);

  afterAll(async () => {
    await slack?.close();
    await tools?.close();
    await agent?.close();
    await platform?.close();
  });

  /** A person talks to an agent in one A2A context; the agent, serving it, calls an MCP tool. */
  async function personAgentMcp(): Promise<{
    person: TestPerson;
    target: TestAgent;
    contextId: string;
    conversation: Conversation;
  }> {
    const target = await world.agent();
    await world.ok('PATCH', `/relay/v1/agents/${target.id}`, { agentCardUrl: agent.cardUrl });
    await world.subscribe(target.id, serverId);
    await world.bindToAgent(target.id, LOG_POLICY);
    const person = await humans.person();
    await humans.subscribe(person.id, target.id);
    const contextId = randomUUID();
    const correlationId = randomUUID();
    const body = messageSend(`hello ${contextId}`) as { params: { message: Json } };
    body.params.message.contextId = contextId;
    const asked = await humans.post(person.token, target.id, body, {
      'x-correlation-id': correlationId,
    });
    expect(asked.status).toBe(200);
    // The agent's own MCP client carries the correlation id of the message it serves (D13).
    const session = await RawMcpSession.open(world.mcpUrl(serverId), target.mcpToken);
    const called = await session.callTool(
      'echo',
      { text: `lookup ${contextId}` },
      { 'x-correlation-id': correlationId },
    );
    expect(called.status).toBe(200);
    const conversation = await eventually(async () => {
      const list = await world.ok<{ items: Conversation[] }>(
        'GET',
        `/relay/v1/conversations?userId=${person.id}`,
      );
      expect(list.items).toHaveLength(1);
      expect(list.items[0].hopCount).toBe(4);
      return list.items[0];
    });
    return { person, target, contextId, conversation };
  }

  it('should read a conversation across a person, an agent and an MCP server back hop by hop, paged', async () => {
    const { person, target, contextId, conversation } = await personAgentMcp();

    const first = await world.ok<Conversation>(
      'GET',
      `/relay/v1/conversations/${conversation.id}?limit=2`,
    );
    const second = await world.ok<Conversation>(
      'GET',
      `/relay/v1/conversations/${conversation.id}?limit=2&cursor=${first.nextCursor}`,
    );
    const byServer = await world.ok<{ items: Conversation[] }>(
      'GET',
      `/relay/v1/conversations?mcpServerId=${serverId}&agentId=${target.id}`,
    );

    expect(conversation).toMatchObject({
      keyKind: 'A2A_CONTEXT',
      key: contextId,
      protocols: ['JSONRPC', 'MCP'],
      userIds: [person.id],
      mcpServerIds: [serverId],
    });
    expect(conversation.agentIds).toContain(target.id);
    expect(first.messages).toHaveLength(2);
    expect(first.messages[0]).toMatchObject({
      direction: 'REQUEST',
      protocol: 'JSONRPC',
      source: { type: 'USER', id: person.id },
      sink: { type: 'AGENT', id: target.id },
      decision: { action: 'LOG', policies: [expect.any(String)] },
    });
    expect(JSON.stringify(first.messages[0].content)).toContain(`hello ${contextId}`);
    expect(first.messages[1]).toMatchObject({ direction: 'RESPONSE', protocol: 'JSONRPC' });
    expect(second.messages.map((m) => [m.direction, m.protocol, m.toolName])).toEqual([
      ['REQUEST', 'MCP', 'echo'],
      ['RESPONSE', 'MCP', 'echo'],
    ]);
    expect(second.messages[0].sink).toMatchObject({ type: 'MCP_SERVER', id: serverId });
    expect(JSON.stringify(second.messages[0].content)).toContain(`lookup ${contextId}`);
    // The session's own opening (initialize) is a conversation of the agent and the server too.
    expect(byServer.items.map((c) => c.id)).toContain(conversation.id);
  });

  it('should refuse another tenant’s and an unpermitted user’s reads', async () => {
    const { person, conversation } = await personAgentMcp();
    const other = await McpWorld.create(platform);
    const asPerson = (path: string) =>
      fetch(`${platform.baseUrl}${path}`, { headers: { authorization: `Bearer ${person.token}` } });

    const otherRead = await other.api('GET', `/relay/v1/conversations/${conversation.id}`);
    const otherList = await other.ok<{ items: Conversation[] }>('GET', '/relay/v1/conversations');
    const otherPost = await other.api(
      'POST',
      `/relay/v1/conversations/${conversation.id}/messages`,
      {
        text: 'hello',
      },
    );
    const personRead = await asPerson(`/relay/v1/conversations/${conversation.id}`);
    const personList = await asPerson('/relay/v1/conversations');

    expect(otherRead.status).toBe(404);
    expect(otherList.items).toEqual([]);
    expect(otherPost.status).toBe(404);
    expect(personRead.status).toBe(403);
    expect(personList.status).toBe(403);
    expect(((await personList.json()) as Json).detail).toContain('AGENT_CONVERSATIONS:READ');
  });

  it('should judge an operator’s message to the agent, a BLOCK binding stopping it, and deliver an allowed one once in its context', async () => {
    const { target, conversation } = await personAgentMcp();
    await world.bindToAgent(target.id, OPERATOR_BLOCK_POLICY);
    const blockedText = `forbidden ${randomUUID()}`;
    const allowedText = `operator ${randomUUID()}`;

    const blocked = await world.api('POST', `/relay/v1/conversations/${conversation.id}/messages`, {
      text: blockedText,
    });
    const sent = await world.api<Json>(
      'POST',
      `/relay/v1/conversations/${conversation.id}/messages`,
      { text: allowedText },
    );
    const read = await eventually(async () => {
      const found = await world.ok<Conversation>(
        'GET',
        `/relay/v1/conversations/${conversation.id}`,
      );
      expect(found.messages).toHaveLength(7);
      return found;
    });

    expect(blocked.status).toBe(403);
    expect(String(blocked.body.detail)).toContain('operators may not say that');
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({
      conversationId: conversation.id,
      deliveredVia: 'A2A',
      decision: { action: 'LOG' },
      reply: `echo: ${allowedText}`,
    });
    expect(agent.received.filter((m) => m.text.includes(blockedText))).toEqual([]);
    expect(agent.received.filter((m) => m.text === allowedText)).toHaveLength(1);
    const operatorHops = read.messages.filter((m) => m.method === 'SendMessage');
    expect(operatorHops.map((m) => [m.direction, (m.decision as Json).action])).toEqual([
      ['REQUEST', 'BLOCK'],
      ['REQUEST', 'LOG'],
      ['RESPONSE', 'LOG'],
    ]);
  });

  it('should deliver an operator’s message once into the conversation’s Slack thread and let a BLOCK binding stop another', async () => {
    const { channel } = await channels.slackChannel(OPERATOR_BLOCK_POLICY);
    const channelId = String(channel.id);
    const marker = `thread-${randomUUID()}`;
    const ts = `${Math.floor(Date.now() / 1000)}.000200`;
    await channels.postSlack(channelId, slackMessageEvent(`Ev${randomUUID()}`, marker, ts));
    await eventually(() => expect(slack.postsMentioning(marker)).toHaveLength(1));
    const conversation = await eventually(async () => {
      const list = await world.ok<{ items: Conversation[] }>(
        'GET',
        `/relay/v1/conversations?channelId=${channelId}`,
      );
      expect(list.items).toHaveLength(1);
      expect(list.items[0].hopCount).toBe(2);
      return list.items[0];
    });
    const allowedText = `operator ${randomUUID()}`;
    const blockedText = `forbidden ${randomUUID()}`;

    const sent = await world.api<Json>(
      'POST',
      `/relay/v1/conversations/${conversation.id}/messages`,
      { text: allowedText },
    );
    const blocked = await world.api('POST', `/relay/v1/conversations/${conversation.id}/messages`, {
      text: blockedText,
    });

    expect(conversation).toMatchObject({ keyKind: 'CHANNEL_THREAD', channelIds: [channelId] });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({
      deliveredVia: 'CHANNEL_THREAD',
      decision: { action: 'LOG' },
    });
    expect(blocked.status).toBe(403);
    const posts = slack.postsMentioning(allowedText);
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ thread_ts: ts });
    expect(slack.postsMentioning(blockedText)).toEqual([]);
  });

  it('should refuse an operator’s message into an MCP-only conversation with 409', async () => {
    const caller = await world.agent();
    await world.subscribe(caller.id, serverId);
    const session = await RawMcpSession.open(world.mcpUrl(serverId), caller.mcpToken);
    await session.callTool('echo', { text: 'only mcp' });
    const conversation = await eventually(async () => {
      const list = await world.ok<{ items: Conversation[] }>(
        'GET',
        `/relay/v1/conversations?agentId=${caller.id}&mcpServerId=${serverId}`,
      );
      const found = list.items.find((c) => c.keyKind === 'MCP_SESSION');
      expect(found).toBeDefined();
      return found!;
    });

    const sut = await world.api('POST', `/relay/v1/conversations/${conversation.id}/messages`, {
      text: 'hello',
    });

    expect(sut.status).toBe(409);
    expect(String(sut.body.detail)).toContain('MCP');
  });
});
