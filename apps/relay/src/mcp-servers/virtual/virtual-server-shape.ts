import { Tx } from '@agp/database';

import { CatalogEntry } from '../../registry/catalog.repository';
import { RegistryErrorCode, RegistryException } from '../../registry/registry.exception';
import { FieldError, VirtualMember, resolveMembers } from './virtual-members';
import { VirtualMembersRepository } from './virtual-members.repository';

const repository = new VirtualMembersRepository();

/**
 * D52, traffic.md T76: a VIRTUAL server has members and neither URL nor credential; any other has
 * a URL and no members; a server never changes between the two. Members are stored with their
 * prefixes resolved, so renaming a member later does not rename what agents were shown.
 */
export async function shapedMcpServer(
  tx: Tx,
  tenantId: string,
  values: Record<string, unknown>,
  before?: CatalogEntry,
): Promise<Record<string, unknown>> {
  const transport = values.transport ?? before?.transport;
  const isVirtual = transport === 'VIRTUAL';
  const errors: FieldError[] = [];
  if (before && values.transport !== undefined && (before.transport === 'VIRTUAL') !== isVirtual) {
    errors.push({ field: 'transport', message: 'a server cannot turn virtual or stop being so' });
  }
  if (before && (await isInstalled(tx, tenantId, before.id))) {
    // MK31: an installed entry is reached through its publisher: nothing of an upstream is its own.
    for (const field of ['url', 'credential', 'credentialHeader', 'transport', 'members']) {
      if (values[field] !== undefined) {
        errors.push({
          field,
          message: `an MCP server installed from the marketplace has no ${field} of its own (MK31)`,
        });
      }
    }
  }
  const forbidden = isVirtual ? ['url', 'credential', 'credentialHeader'] : ['members'];
  for (const field of forbidden.filter((f) => values[f] !== undefined && values[f] !== null)) {
    errors.push({
      field,
      message: isVirtual
        ? `a VIRTUAL server has no ${field}: each member is called with its own (D52)`
        : `only a VIRTUAL server has members (D52)`,
    });
  }
  if (isVirtual && values.members === null) {
    errors.push({ field: 'members', message: 'a VIRTUAL server needs at least one member' });
  }
  if (!isVirtual && !before && typeof values.url !== 'string') {
    errors.push({ field: 'url', message: 'url must be an URL address' });
  }
  throwIfAny(errors);
  if (!Array.isArray(values.members)) {
    return values;
  }
  const given = values.members as VirtualMember[];
  const servers = await repository.findServers(
    tx,
    tenantId,
    given.map((m) => m.serverId),
  );
  const resolved = resolveMembers(given, servers, before?.id);
  if ('errors' in resolved) {
    throwIfAny(resolved.errors);
    return values;
  }
  return { ...values, members: resolved.members };
}

/** D52: a member stays while a virtual server composes it. */
export async function refuseRemovingMember(
  tx: Tx,
  tenantId: string,
  entry: CatalogEntry,
): Promise<void> {
  if (await isInstalled(tx, tenantId, entry.id)) {
    throw new RegistryException(
      RegistryErrorCode.InUse,
      `MCP server ${entry.name} was installed from the marketplace: remove its installation (MK34)`,
    );
  }
  const naming = await repository.virtualServersNaming(tx, tenantId, entry.id);
  if (naming.length > 0) {
    throw new RegistryException(
      RegistryErrorCode.InUse,
      `MCP server ${entry.name} is a member of the virtual server(s) ${naming.join(', ')}; remove it there first`,
    );
  }
}

async function isInstalled(tx: Tx, tenantId: string, id: string): Promise<boolean> {
  const rows: { installation_id: string | null }[] = await tx.query(
    `SELECT installation_id FROM relay.mcp_servers WHERE tenant_id = $1 AND id = $2`,
    [tenantId, id],
  );
  return rows[0]?.installation_id != null;
}

function throwIfAny(errors: FieldError[]): void {
  if (errors.length > 0) {
    throw new RegistryException(
      RegistryErrorCode.InvalidReference,
      `invalid request: ${errors.map((e) => e.field).join(', ')}`,
      errors,
    );
  }
}
