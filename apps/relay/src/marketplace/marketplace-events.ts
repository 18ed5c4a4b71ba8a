import { randomUUID } from 'node:crypto';

import { ChangeInput, adminChangeData, recordAdminChange } from '@agp/admin-changes';
import { AdminChange, EventParty } from '@agp/contracts';
import { RequestContext, actorOf, eventContext } from '@agp/auth';
import { Tx } from '@agp/database';
import { EventOutbox } from '@agp/messaging';

import { RELAY_ORIGIN } from '../agents/agents.service';
import { ListingKind } from './marketplace.types';

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

/**
 * MK12, MK34: the installed entry's lifecycle in the installer's trail: AGENT_LIFECYCLE (the
 * relay's own origin) for an agent, MCP_LIFECYCLE as the registry writes it for an MCP server.
 */
export async function recordEntryLifecycle(
  outbox: EventOutbox,
  tx: Tx,
  ctx: RequestContext,
  kind: ListingKind,
  entry: { id: string; name: string; installationId: string },
  change: 'CREATED' | 'DELETED',
): Promise<void> {
  const noun = kind === 'AGENT' ? 'agent' : 'MCP server';
  const common = {
    actor: actorOf(ctx),
    sink: { type: kind, id: entry.id, label: entry.name },
    summary: `${noun} ${entry.name} ${change === 'CREATED' ? 'installed from the marketplace' : 'removed with its installation'}`,
  };
  if (kind === 'MCP_SERVER') {
    await outbox.add(tx, 'MCP_LIFECYCLE', eventContext(ctx), {
      ...common,
      details: {
        change,
        mcpServerId: entry.id,
        name: entry.name,
        installationId: entry.installationId,
      },
    });
    return;
  }
  await outbox.add(tx, 'AGENT_LIFECYCLE', eventContext(ctx), {
    ...common,
    details: { origin: RELAY_ORIGIN, installationId: entry.installationId },
    agentId: entry.id,
    name: entry.name,
    change,
    status: change === 'CREATED' ? 'ACTIVE' : 'DELETED',
    permissions: [],
  });
}
