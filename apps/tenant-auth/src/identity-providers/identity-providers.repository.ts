import { Injectable } from '@nestjs/common';
import { Row, saveRow, Tx, Unsaved } from '@agp/database';

import { IdentityProvider } from './identity-provider.types';

const TABLE = 'tenant_auth.identity_providers';

@Injectable()
export class IdentityProvidersRepository {
  async findById(tx: Tx, tenantId: string, id: string): Promise<IdentityProvider | null> {
    const rows: Row[] = await tx.query(`SELECT * FROM ${TABLE} WHERE tenant_id = $1 AND id = $2`, [
      tenantId,
      id,
    ]);
    return rows[0] ? toProvider(rows[0]) : null;
  }

  /** Federation's lookup (system scope: the callback names the provider, not the tenant). */
  async findEnabled(tx: Tx, id: string): Promise<IdentityProvider | null> {
    const rows: Row[] = await tx.query(`SELECT * FROM ${TABLE} WHERE id = $1 AND enabled`, [id]);
    return rows[0] ? toProvider(rows[0]) : null;
  }

  /** Operation 5: a plain array (D31), by alias. */
  async list(tx: Tx, tenantId: string): Promise<IdentityProvider[]> {
    const rows: Row[] = await tx.query(
      `SELECT * FROM ${TABLE} WHERE tenant_id = $1 ORDER BY alias`,
      [tenantId],
    );
    return rows.map(toProvider);
  }

  async save(tx: Tx, provider: Unsaved<IdentityProvider>): Promise<IdentityProvider> {
    const row = await saveRow(
      tx,
      TABLE,
      {
        id: provider.id,
        tenant_id: provider.tenantId,
        alias: provider.alias,
        display_name: provider.displayName,
        enabled: provider.enabled,
        type: provider.type,
        client_id: provider.clientId,
        client_secret_sealed: provider.clientSecretSealed,
        issuer_url: provider.issuerUrl,
        group_mappings: JSON.stringify(provider.groupMappings),
        email_domains: JSON.stringify(provider.emailDomains),
        redirect_uri: provider.redirectUri,
        created_by: provider.createdBy,
      },
      { key: ['id'] },
    );
    return toProvider(row);
  }

  async remove(tx: Tx, tenantId: string, id: string): Promise<void> {
    await tx.query(`DELETE FROM ${TABLE} WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
  }
}

function toProvider(row: Row): IdentityProvider {
  return {
    id: row.id as string,
    tenantId: row.tenant_id as string,
    alias: row.alias as string,
    displayName: row.display_name as string,
    enabled: row.enabled as boolean,
    type: row.type as IdentityProvider['type'],
    clientId: row.client_id as string,
    clientSecretSealed: row.client_secret_sealed as string | null,
    issuerUrl: row.issuer_url as string | null,
    groupMappings: row.group_mappings as IdentityProvider['groupMappings'],
    emailDomains: row.email_domains as IdentityProvider['emailDomains'],
    redirectUri: row.redirect_uri as string | null,
    createdBy: row.created_by as string,
    createdAt: row.created_at as Date,
    updatedAt: row.updated_at as Date,
  };
}
