import { Inject, Injectable } from '@nestjs/common';
import { Database, Tx } from '@agp/database';
import { EventOutbox } from '@agp/messaging';

import { RELAY_DATABASE, RELAY_OUTBOX } from '../../database/tokens';
import { definitionHash, definitionOf, poisoningOf } from '../../mcp-tools/tool-definition';
import {
  StoredToolDefinition,
  ToolDefinitionsRepository,
} from '../../mcp-tools/tool-definitions.repository';
import { ToolDrift, driftOf, imposedBy } from '../../mcp-tools/tool-drift';
import { ExpiringCache } from '../pipeline/expiring-cache';
import { TrafficDirectory } from '../pipeline/traffic-directory';
import { JsonRpcMessage } from './json-rpc';
import { McpCall, partyOf } from './mcp-call';

/** The relay itself, as the actor of what it records from traffic (D42's actor). */
const RELAY_ACTOR = { type: 'SERVICE', label: 'relay' };

/** D51, T86, T87: definitions hashed, drift and shadowing recorded once; cached as routes (T2). */
@Injectable()
export class McpToolWatch {
  private readonly drifts: ExpiringCache<ToolDrift | undefined>;

  constructor(
    private readonly directory: TrafficDirectory,
    private readonly repository: ToolDefinitionsRepository,
    @Inject(RELAY_DATABASE) private readonly database: Database,
    @Inject(RELAY_OUTBOX) private readonly outbox: EventOutbox,
  ) {
    this.drifts = directory.cacheFor();
  }

  /** Records a `tools/list` answer; answers the names `toolDrift` withholds from the agent. */
  async observeList(call: McpCall, answer: JsonRpcMessage): Promise<Set<string>> {
    const entries = (answer.result as { tools?: unknown } | undefined)?.tools;
    const definitions = Array.isArray(entries)
      ? entries.map(definitionOf).filter((d) => d !== undefined)
      : [];
    if (definitions.length === 0) {
      return new Set();
    }
    const { toolDrift } = await this.directory.settings(call.tenantId);
    const withheld = await this.database.inTenant(call.tenantId, async (tx) => {
      const names = definitions.map((d) => d.name);
      const known = new Map(
        (await this.repository.ofServer(tx, call.tenantId, call.serverId, names)).map((r) => [
          r.name,
          r,
        ]),
      );
      const observed = definitions.map((definition) => {
        const hash = definitionHash(definition);
        const before = known.get(definition.name);
        // GR14: only a definition not seen before goes through the engine again.
        const findings =
          before?.definitionHash === hash ? before.findings : poisoningOf(definition);
        return { definition, hash, findings };
      });
      const stored = await this.repository.observe(tx, call.tenantId, call.serverId, observed);
      const elsewhere = await this.repository.sameNamesElsewhere(
        tx,
        call.tenantId,
        call.serverId,
        partyRef(call),
        names,
      );
      const held = new Set<string>();
      for (const row of stored) {
        const same = elsewhere.filter((other) => other.name === row.name);
        const drift = driftOf(row, same);
        await this.flag(tx, call, row, drift, same, toolDrift);
        if (imposedBy(toolDrift, row.name, drift)) {
          held.add(row.name);
        }
      }
      return held;
    });
    // This replica's next tools/call reads what was just stored (others: the TTL or the event).
    this.drifts.invalidate((key) => key.startsWith(`${call.tenantId}:`));
    return withheld;
  }

  /** GR21: on `notifications/tools/list_changed` this replica reads the server's tools again. */
  forgetServer(call: McpCall): void {
    this.drifts.invalidate((key) => key.startsWith(`${call.tenantId}:${call.serverId}:`));
  }

  /** The facts of `tool` on this call's server for this call's party (undefined: never listed). */
  driftFor(call: McpCall, tool: string): Promise<ToolDrift | undefined> {
    const party = partyRef(call);
    const key = `${call.tenantId}:${call.serverId}:${party.kind}:${party.id}:${tool}`;
    return this.drifts.get(key, () =>
      this.database.inTenant(call.tenantId, async (tx) => {
        const [row] = await this.repository.ofServer(tx, call.tenantId, call.serverId, [tool]);
        if (!row) {
          return undefined;
        }
        const same = await this.repository.sameNamesElsewhere(
          tx,
          call.tenantId,
          call.serverId,
          party,
          [tool],
        );
        return driftOf(row, same);
      }),
    );
  }

  /** D51, T87: MCP_LIFECYCLE once per changed hash, and once per shadowing pair and subscriber. */
  private async flag(
    tx: Tx,
    call: McpCall,
    row: StoredToolDefinition,
    drift: ToolDrift,
    same: StoredToolDefinition[],
    toolDrift: string,
  ): Promise<void> {
    const server = { type: 'MCP_SERVER', id: call.serverId, label: call.route.server.name };
    const context = { tenantId: call.tenantId, correlationId: call.correlationId };
    const party = partyRef(call);
    const tenantId = call.tenantId;
    if (
      drift.isChanged &&
      (await this.repository.flag(
        tx,
        tenantId,
        call.serverId,
        row.name,
        'TOOL_DEFINITION_CHANGED',
        row.definitionHash,
      ))
    ) {
      await this.outbox.add(tx, 'MCP_LIFECYCLE', context, {
        actor: RELAY_ACTOR,
        sink: server,
        summary: `the definition of the tool ${row.name} of MCP server ${call.route.server.name} changed since it was pinned`,
        details: {
          change: 'TOOL_DEFINITION_CHANGED',
          mcpServerId: call.serverId,
          tool: row.name,
          definitionHash: row.definitionHash,
          pinnedHash: row.pinnedHash,
          changedFields: drift.input.changedFields,
          toolDrift,
        },
      });
    }
    for (const other of same) {
      // One pair, one flag, whichever of the two servers' lists revealed it.
      const [first, second] = [call.serverId, other.serverId].sort();
      const key = `${party.kind}:${party.id}:${second}`;
      if (!(await this.repository.flag(tx, tenantId, first, row.name, 'TOOL_NAME_SHADOWED', key))) {
        continue;
      }
      await this.outbox.add(tx, 'MCP_LIFECYCLE', context, {
        actor: RELAY_ACTOR,
        sink: server,
        summary: `the tool name ${row.name} is offered by two MCP servers of one subscriber`,
        details: {
          change: 'TOOL_NAME_SHADOWED',
          mcpServerId: call.serverId,
          otherMcpServerId: other.serverId,
          tool: row.name,
          subscriberType: partyOf(call),
          subscriberId: call.agentId,
          toolDrift,
        },
      });
    }
  }
}

const SUBSCRIBER_KIND = {
  AGENT: 'AGENT_TO_MCP_SERVER',
  USER: 'USER_TO_MCP_SERVER',
  INSTALLATION: 'MARKETPLACE_INSTALLATION',
} as const;

/** The subscriber whose servers shadow each other: the agent, or the person (D32, D43). */
function partyRef(call: McpCall): { kind: string; id: string } {
  const kind = SUBSCRIBER_KIND[partyOf(call)];
  return { kind, id: call.agentId };
}
