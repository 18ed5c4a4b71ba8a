import { Injectable } from '@nestjs/common';
import { Tx } from '@agp/database';

import { AUDIT_SCHEMA } from '../../database/tokens';
import { StoredMonitorSettings } from '../engine/detector-settings';

export interface StoredConfigRow {
  settings: StoredMonitorSettings;
  updatedAt: Date;
  updatedByLabel: string | null;
}

interface ConfigRecord {
  settings: StoredMonitorSettings;
  updated_at: Date;
  updated_by_label: string | null;
}

@Injectable()
export class MonitorConfigRepository {
  async find(tx: Tx, tenantId: string): Promise<StoredConfigRow | undefined> {
    const rows: ConfigRecord[] = await tx.query(
      `SELECT settings, updated_at, updated_by_label FROM ${AUDIT_SCHEMA}.monitor_configs WHERE tenant_id = $1`,
      [tenantId],
    );
    const row = rows[0];
    return (
      row && {
        settings: row.settings,
        updatedAt: row.updated_at,
        updatedByLabel: row.updated_by_label,
      }
    );
  }

  /** Serialises concurrent PUTs of one tenant, so each event names what really changed. */
  async lock(tx: Tx, tenantId: string): Promise<void> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('agp:monitor-config:' || $1))`, [
      tenantId,
    ]);
  }

  async save(
    tx: Tx,
    tenantId: string,
    settings: StoredMonitorSettings,
    label: string,
  ): Promise<void> {
    await tx.query(
      `INSERT INTO ${AUDIT_SCHEMA}.monitor_configs (tenant_id, settings, updated_at, updated_by_label)
       VALUES ($1, $2, now(), $3)
       ON CONFLICT (tenant_id) DO UPDATE
       SET settings = excluded.settings, updated_at = excluded.updated_at, updated_by_label = excluded.updated_by_label`,
      [tenantId, JSON.stringify(settings), label],
    );
  }
}
