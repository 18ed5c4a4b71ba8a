import { RequestContext, allows } from '@agp/auth';
import { PermissionEntity } from '@agp/contracts';
import { HttpProblem } from '@agp/http';

import { Viewer } from './discovery.types';

/**
 * DS7: who the caller is for visibility. An agent's token may search (D59) and sees what its
 * visibility allows; anyone else needs one of `roles` (the registry's read role), and then sees
 * the whole tenant, as the registry's own lists do.
 */
export function viewerOf(ctx: RequestContext, roles: readonly PermissionEntity[]): Viewer {
  const { principal } = ctx;
  if (principal.kind === 'AGENT') {
    return { kind: 'AGENT', agentId: principal.subject };
  }
  if (roles.some((entity) => allows(principal.permissions, entity, 'READ'))) {
    return { kind: 'ADMIN' };
  }
  throw HttpProblem.forbidden(roles.map((entity) => `${entity}:READ`).join(' or '));
}

/** DS8: an agent's token, whatever its roles, reads in the registry only what it could discover. */
export function registryViewerOf(ctx: RequestContext): string | null {
  return ctx.principal.kind === 'AGENT' ? ctx.principal.subject : null;
}

/** The agent id an SQL visibility condition takes, null for a viewer who sees everything. */
export function viewerParam(viewer: Viewer): string | null {
  return viewer.kind === 'AGENT' ? viewer.agentId : null;
}

/**
 * DS7: the condition an entry `alias` (with `id`, `tenant_id`, `visibility`) must meet for the
 * viewer bound at `param` (a uuid, NULL for an administrator): INTERNAL and PUBLIC to the tenant,
 * PRIVATE to the agent's subscribers, and an agent always to itself. Registry lists and discovery
 * share it, so nothing an agent cannot discover is listed, fetched or named in an error.
 */
export function visibleToSql(alias: string, param: string, id = 'id'): string {
  return `(${param}::uuid IS NULL OR ${alias}.visibility IN ('INTERNAL', 'PUBLIC')
    OR ${alias}.${id} = ${param}::uuid
    OR EXISTS (SELECT 1 FROM relay.subscriptions vis WHERE vis.tenant_id = ${alias}.tenant_id
      AND vis.source_id = ${param}::uuid AND vis.target_id = ${alias}.${id}
      AND vis.kind IN ('AGENT_TO_AGENT', 'AGENT_TO_MCP_SERVER')))`;
}
