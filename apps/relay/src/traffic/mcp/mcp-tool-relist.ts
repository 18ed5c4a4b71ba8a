import { setTimeout as sleep } from 'node:timers/promises';

import { Inject, Injectable, Logger } from '@nestjs/common';
import { Database } from '@agp/database';
import { EventSourceMessage, createParser } from 'eventsource-parser';

import { RELAY_DATABASE } from '../../database/tokens';
import { ToolRelistsRepository } from '../../mcp-tools/tool-relists.repository';
import { OpenedCredentials } from '../pipeline/opened-credentials';
import { readBodyWithin } from '../pipeline/upstream-body';
import { JsonRpcMessage } from './json-rpc';
import { McpCall } from './mcp-call';
import { MAX_UPSTREAM_MESSAGE_BYTES, McpUpstream, UpstreamFailure } from './mcp-upstream';
import { McpToolWatch } from './mcp-tool-watch';
import { upstreamCredentialOf } from './upstream-credential-of';

/** GR38: a burst of notifications within this long is listed once. */
export const RELIST_BURST_MS = 250;
/** A claim outlives a replica that died while listing by this long, then the next change claims. */
const CLAIM_MS = 30_000;
/** Listings per claim when changes keep coming while listing. */
const MAX_ROUNDS = 3;
/** `tools/list` pages followed per listing. */
const MAX_PAGES = 10;
const LIST_TIMEOUT_MS = 15_000;

/**
 * GR38: on `notifications/tools/list_changed` the relay lists the server's tools itself, in the
 * session the notification came in, and records them as a client's listing would (D51, GR21), so
 * schemas and pinned definitions do not wait for a client to list again. A burst is listed once
 * across replicas: the claim and the last change are rows in PostgreSQL.
 */
@Injectable()
export class McpToolRelist {
  private readonly logger = new Logger(McpToolRelist.name);

  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    private readonly repository: ToolRelistsRepository,
    private readonly upstream: McpUpstream,
    private readonly credentials: OpenedCredentials,
    private readonly tools: McpToolWatch,
  ) {}

  /** Records the change; lists when this replica holds the claim. Never in the agent's way. */
  changed(call: McpCall): Promise<void> {
    const listed = this.claimAndList(call).catch((error: unknown) => {
      const why = error instanceof Error ? error.message : String(error);
      this.logger.warn(`relisting the tools of MCP server ${call.serverId} failed: ${why}`);
    });
    return listed;
  }

  private async claimAndList(call: McpCall): Promise<void> {
    const { tenantId, serverId } = call;
    const claimed = await this.database.inTenant(tenantId, (tx) =>
      this.repository.changed(tx, tenantId, serverId, CLAIM_MS),
    );
    if (!claimed) {
      return;
    }
    await sleep(RELIST_BURST_MS);
    for (let round = 1; ; round += 1) {
      const startedAt = await this.database.inTenant(tenantId, (tx) => this.repository.now(tx));
      let failure: Error | undefined;
      try {
        // Recorded before the claim ends, so a later listing is never overwritten by this one.
        await this.tools.observeList(call, await this.list(call));
      } catch (error) {
        failure = error instanceof Error ? error : new Error(String(error));
      }
      // A failed listing ends the claim too: the next change claims again.
      const isLast = failure !== undefined || round >= MAX_ROUNDS;
      const released = await this.database.inTenant(tenantId, (tx) =>
        this.repository.release(tx, tenantId, serverId, startedAt, isLast),
      );
      if (failure !== undefined) {
        throw failure;
      }
      if (released || isLast) {
        return;
      }
    }
  }

  /** Every page of `tools/list`, as one answer. */
  private async list(call: McpCall): Promise<JsonRpcMessage> {
    const tools: unknown[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const id = `agp-relist-${call.correlationId}-${page}`;
      const answer = await this.ask(call, {
        jsonrpc: '2.0',
        id,
        method: 'tools/list',
        ...(cursor ? { params: { cursor } } : {}),
      });
      const result = answer.result as { tools?: unknown; nextCursor?: unknown } | undefined;
      if (!result || !Array.isArray(result.tools)) {
        throw new UpstreamFailure(502, 'the server answered tools/list without tools');
      }
      tools.push(...(result.tools as unknown[]));
      cursor = typeof result.nextCursor === 'string' ? result.nextCursor : undefined;
      if (!cursor) {
        break;
      }
    }
    return { jsonrpc: '2.0', id: `agp-relist-${call.correlationId}`, result: { tools } };
  }

  /** One request in the agent's session; the answer is the relay's, never the agent's. */
  private async ask(call: McpCall, request: JsonRpcMessage): Promise<JsonRpcMessage> {
    const session = call.agentHeaders['mcp-session-id'];
    const version = call.agentHeaders['mcp-protocol-version'];
    const credential = upstreamCredentialOf(this.credentials, call.route.server);
    const answer = await this.upstream.send({
      server: call.route.server,
      method: 'POST',
      agentHeaders: {
        ...(typeof session === 'string' ? { 'mcp-session-id': session } : {}),
        ...(typeof version === 'string' ? { 'mcp-protocol-version': version } : {}),
      },
      correlationId: call.correlationId,
      body: JSON.stringify(request),
      signal: AbortSignal.timeout(LIST_TIMEOUT_MS),
      ...(credential ? { credential } : {}),
    });
    if (answer.statusCode !== 200) {
      await answer.body.dump();
      throw new UpstreamFailure(502, `the server answered tools/list with ${answer.statusCode}`);
    }
    const type = String(answer.headers['content-type'] ?? '');
    const text = await readBodyWithin(
      answer,
      MAX_UPSTREAM_MESSAGE_BYTES,
      () => new UpstreamFailure(502, 'a tools/list answer too large to read'),
    );
    const messages = type.includes('text/event-stream') ? eventsOf(text) : [JSON.parse(text)];
    const found = (messages as JsonRpcMessage[]).find((m) => m?.id === request.id);
    if (!found) {
      throw new UpstreamFailure(502, 'the server did not answer tools/list');
    }
    return found;
  }
}

/** The JSON-RPC messages of a whole SSE body (a server may send others before the answer). */
function eventsOf(text: string): unknown[] {
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => events.push(event) });
  parser.feed(text);
  return events.flatMap((event) => {
    try {
      const value = JSON.parse(event.data) as unknown;
      return Array.isArray(value) ? (value as unknown[]) : [value];
    } catch {
      return [];
    }
  });
}
