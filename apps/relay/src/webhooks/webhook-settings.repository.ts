import { Injectable } from '@nestjs/common';
import { date, Row, str, Tx } from '@agp/database';

/** An agent's webhook as stored: the URL and its sealed signing secrets (D19, D37). */
export interface WebhookSettings {
  agentId: string;
  name: string;
  status: string;
  url?: string;
  secretCiphertext?: string;
  previousSecretCiphertext?: string;
  previousSecretExpiresAt?: Date;
}

@Injectable()
export class WebhookSettingsRepository {
  async find(tx: Tx, tenantId: string, agentId: string): Promise<WebhookSettings | undefined> {
    return this.select(tx, tenantId, agentId, '');
  }

  /** Locks the agent's row, so two concurrent changes of its webhook apply one after the other. */
  async findForUpdate(
    tx: Tx,
    tenantId: string,
    agentId: string,
  ): Promise<WebhookSettings | undefined> {
    return this.select(tx, tenantId, agentId, 'FOR UPDATE');
  }

  async setUrl(
    tx: Tx,
    tenantId: string,
    agentId: string,
    url: string,
    secretCiphertext?: string,
  ): Promise<void> {
    await tx.query(
      `UPDATE relay.agents SET webhook_url = $3,
         webhook_secret_ciphertext = coalesce($4, webhook_secret_ciphertext), updated_at = now(),
         webhook_set_at = CASE WHEN webhook_url IS NULL THEN now() ELSE webhook_set_at END
       WHERE tenant_id = $1 AND id = $2`,
      [tenantId, agentId, url, secretCiphertext ?? null],
    );
  }

  /** No webhook any more: its secrets go with it, so a URL set later gets a fresh one. */
  async clear(tx: Tx, tenantId: string, agentId: string): Promise<void> {
    await tx.query(
      `UPDATE relay.agents SET webhook_url = NULL, webhook_secret_ciphertext = NULL, webhook_set_at = NULL,
         webhook_previous_secret_ciphertext = NULL, webhook_previous_secret_expires_at = NULL, updated_at = now()
       WHERE tenant_id = $1 AND id = $2`,
      [tenantId, agentId],
    );
  }

  /** The new secret signs from now; the one it replaces signs beside it until `overlapEndsAt`. */
  async rotate(
    tx: Tx,
    tenantId: string,
    agentId: string,
    secretCiphertext: string,
    overlapEndsAt: Date,
  ): Promise<void> {
    await tx.query(
      `UPDATE relay.agents SET webhook_previous_secret_ciphertext = webhook_secret_ciphertext,
         webhook_previous_secret_expires_at = $4, webhook_secret_ciphertext = $3, updated_at = now()
       WHERE tenant_id = $1 AND id = $2`,
      [tenantId, agentId, secretCiphertext, overlapEndsAt],
    );
  }

  private async select(
    tx: Tx,
    tenantId: string,
    agentId: string,
    lock: '' | 'FOR UPDATE',
  ): Promise<WebhookSettings | undefined> {
    const rows: Row[] = await tx.query(
      `SELECT id, name, status, webhook_url, webhook_secret_ciphertext, webhook_previous_secret_ciphertext,
              webhook_previous_secret_expires_at
       FROM relay.agents WHERE tenant_id = $1 AND id = $2 ${lock}`,
      [tenantId, agentId],
    );
    return rows[0] ? toSettings(rows[0]) : undefined;
  }
}

function toSettings(row: Row): WebhookSettings {
  return {
    agentId: String(row.id),
    name: String(row.name),
    status: String(row.status),
    url: str(row.webhook_url),
    secretCiphertext: str(row.webhook_secret_ciphertext),
    previousSecretCiphertext: str(row.webhook_previous_secret_ciphertext),
    previousSecretExpiresAt: date(row.webhook_previous_secret_expires_at),
  };
}
