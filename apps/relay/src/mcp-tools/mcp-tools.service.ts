import { Inject, Injectable } from '@nestjs/common';
import { RequestContext, actorOf, eventContext } from '@agp/auth';
import { Database, Tx } from '@agp/database';
import { HttpProblem } from '@agp/http';
import { EventOutbox } from '@agp/messaging';

import { RELAY_DATABASE, RELAY_OUTBOX } from '../database/tokens';
import { PinToolsDto } from './dto/pin-tools.dto';
import { ToolDefinitionListResponse, ToolDefinitionResponse } from './mcp-tools.types';
import { changedFields, statusOf } from './tool-definition';
import { StoredToolDefinition, ToolDefinitionsRepository } from './tool-definitions.repository';

/** D51: what an administrator reads and approves of the tool definitions the relay has seen. */
@Injectable()
export class McpToolsService {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    @Inject(RELAY_OUTBOX) private readonly outbox: EventOutbox,
    private readonly repository: ToolDefinitionsRepository,
  ) {}

  list(ctx: RequestContext, serverId: string): Promise<ToolDefinitionListResponse> {
    return this.database.inTenant(ctx.tenantId, async (tx) => {
      await this.serverName(tx, ctx.tenantId, serverId);
      const rows = await this.repository.ofServer(tx, ctx.tenantId, serverId);
      return { items: rows.map(toResponse) };
    });
  }

  /** D42, T2: `TOOLS_PINNED`'s broadcast is how every replica's traffic paths hear of it. */
  pin(
    ctx: RequestContext,
    serverId: string,
    dto: PinToolsDto,
  ): Promise<ToolDefinitionListResponse> {
    return this.database.inTenant(ctx.tenantId, async (tx) => {
      const name = await this.serverName(tx, ctx.tenantId, serverId);
      if (dto.names) {
        const known = new Set(
          (await this.repository.ofServer(tx, ctx.tenantId, serverId, dto.names)).map(
            (r) => r.name,
          ),
        );
        const unknown = dto.names.filter((n) => !known.has(n));
        if (unknown.length > 0) {
          throw HttpProblem.validation(
            unknown.map((n) => ({ field: 'names', message: `no tool ${n} seen on this server` })),
          );
        }
      }
      const pinned = await this.repository.pin(
        tx,
        ctx.tenantId,
        serverId,
        dto.names,
        ctx.principal.label ?? ctx.principal.subject,
      );
      await this.outbox.add(tx, 'MCP_LIFECYCLE', eventContext(ctx), {
        actor: actorOf(ctx),
        sink: { type: 'MCP_SERVER', id: serverId, label: name },
        summary: `${pinned.length} tool definition(s) of MCP server ${name} pinned`,
        details: {
          change: 'TOOLS_PINNED',
          mcpServerId: serverId,
          tools: pinned.map((p) => ({ name: p.name, definitionHash: p.definitionHash })),
        },
      });
      return { items: pinned.map(toResponse) };
    });
  }

  /** The server's name; 404 when the tenant has no such server (D12). */
  private async serverName(tx: Tx, tenantId: string, serverId: string): Promise<string> {
    const name = await this.repository.serverName(tx, tenantId, serverId);
    if (name === undefined) {
      throw HttpProblem.notFound(`no MCP server ${serverId} in this tenant`);
    }
    return name;
  }
}

function toResponse(row: StoredToolDefinition): ToolDefinitionResponse {
  const { name: _name, ...definition } = row.definition;
  const status = statusOf(row.definitionHash, row.pinnedHash);
  return {
    name: row.name,
    ...definition,
    definitionHash: row.definitionHash,
    pinnedHash: row.pinnedHash ?? null,
    status,
    changedFields:
      status === 'CHANGED' && row.pinnedDefinition
        ? changedFields(row.pinnedDefinition, row.definition)
        : [],
    findings: row.findings,
    firstSeenAt: row.firstSeenAt.toISOString(),
    changedAt: row.changedAt.toISOString(),
    pinnedAt: row.pinnedAt?.toISOString() ?? null,
    pinnedBy: row.pinnedBy ?? null,
  };
}
