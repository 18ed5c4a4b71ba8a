import { randomUUID } from 'node:crypto';

import { ChangeInput, adminChangeData, recordAdminChange } from '@agp/admin-changes';
import { AdminChange, EventParty } from '@agp/contracts';
import { RequestContext, actorOf, eventContext } from '@agp/auth';
import { Tx } from '@agp/database';
import { EventOutbox } from '@agp/messaging';

import { RELAY_ORIGIN } from '../agents/agents.service';

/**
 * MK15: one change, two trails. The acting tenant's event names its own actor; the other tenant's
 * names only the acting tenant (never its user or agent) and has its own correlation id.
 */
export async function recordBothSides(
  outbox: EventOutbox,
  tx: Tx,
  ctx: RequestContext,
  other: { tenantId: string },
  acting: { slug?: string },
  change: AdminChange,
  input: ChangeInput,
): Promise<void> {
  await recordAdminChange(outbox, tx, ctx, change, input);
  const party: EventParty = {
    type: 'TENANT',
    id: ctx.tenantId,
    ...(acting.slug ? { label: acting.slug } : {}),
  };
  await outbox.add(
    tx,
    'ADMIN_CHANGE',
    { tenantId: other.tenantId, correlationId: randomUUID() },
    adminChangeData(party, change, input),
  );
}

/** MK12: the installed entry's AGENT_LIFECYCLE in the installer's trail (the relay's own origin). */
export async function recordEntryLifecycle(
  outbox: EventOutbox,
  tx: Tx,
  ctx: RequestContext,
  entry: { id: string; name: string; installationId: string },
  change: 'CREATED' | 'DELETED',
): Promise<void> {
  await outbox.add(tx, 'AGENT_LIFECYCLE', eventContext(ctx), {
    actor: actorOf(ctx),
    sink: { type: 'AGENT', id: entry.id, label: entry.name },
    summary: `agent ${entry.name} ${change === 'CREATED' ? 'installed from the marketplace' : 'removed with its installation'}`,
    details: { origin: RELAY_ORIGIN, installationId: entry.installationId },
    agentId: entry.id,
    name: entry.name,
    change,
    status: change === 'CREATED' ? 'ACTIVE' : 'DELETED',
    permissions: [],
  });
}

/** MK34: the installed MCP entry's MCP_LIFECYCLE in the installer's trail, as the registry's. */
export async function recordMcpEntryLifecycle(
  outbox: EventOutbox,
  tx: Tx,
  ctx: RequestContext,
  entry: { id: string; name: string; installationId: string },
  change: 'CREATED' | 'DELETED',
): Promise<void> {
  await outbox.add(tx, 'MCP_LIFECYCLE', eventContext(ctx), {
    actor: actorOf(ctx),
    sink: { type: 'MCP_SERVER', id: entry.id, label: entry.name },
    summary: `MCP server ${entry.name} ${change === 'CREATED' ? 'installed from the marketplace' : 'removed with its installation'}`,
    details: {
      change,
      mcpServerId: entry.id,
      name: entry.name,
      installationId: entry.installationId,
    },
  });
}
