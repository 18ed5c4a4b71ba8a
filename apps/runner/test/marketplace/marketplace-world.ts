import { randomUUID } from 'node:crypto';

import { A2aWorld } from '../a2a/a2a-world';
import { Json, McpWorld, TestAgent } from '../mcp/mcp-world';

/** A JSON-RPC SendMessage of one text part, as a client without the SDK sends it (D38). */
export function sendMessage(text: string, id = 1): Json {
  return {
    jsonrpc: '2.0',
    id,
    method: 'SendMessage',
    params: { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }] } },
  };
}

/** The text of every text part of an answer (a message or a task's artifacts). */
export function answerText(body: Json): string {
  return JSON.stringify(body.result ?? body.error ?? body);
}

/** One tenant on the marketplace: its registry, listings, installations and A2A callers. */
export class MarketTenant {
  readonly a2a: A2aWorld;

  constructor(readonly world: McpWorld) {
    this.a2a = new A2aWorld(world);
  }

  /** A PUBLIC agent of this tenant answering at `cardUrl`, its card fetched once. */
  async publicAgent(cardUrl: string, visibility = 'PUBLIC'): Promise<TestAgent> {
    return this.a2a.target(cardUrl, { visibility });
  }

  async publish(targetId: string, extra: Json = {}): Promise<Json> {
    return this.world.ok<Json>('POST', '/relay/v1/marketplace/listings', {
      kind: 'AGENT',
      targetId,
      name: `ledger reconciler ${randomUUID().slice(0, 6)}`,
      summary: 'Reconciles ledgers and answers questions about invoices',
      categories: ['finance'],
      terms: { type: 'FREE' },
      ...extra,
    });
  }

  async install(
    listingId: string,
    body: Json = {},
  ): Promise<{ installationId: string; agentId: string; licence?: string }> {
    return this.world.ok('POST', `/relay/v1/marketplace/listings/${listingId}/installations`, body);
  }

  /** An agent of this tenant subscribed to `targetId` (AGENT_TO_AGENT), optionally bound. */
  async callerOf(targetId: string, policy?: string): Promise<TestAgent> {
    const caller = await this.world.agent();
    await this.a2a.subscribe(caller.id, targetId);
    if (policy) {
      await this.world.bindToAgent(caller.id, policy);
    }
    return caller;
  }

  async call(caller: TestAgent, targetId: string, text: string, correlationId = randomUUID()) {
    return this.a2a.post(caller, targetId, sendMessage(text), {
      'x-correlation-id': correlationId,
    });
  }
}
