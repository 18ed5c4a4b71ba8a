import { Injectable } from '@nestjs/common';
import { returning, Row, str, Tx } from '@agp/database';

const T = 'relay.a2a_push_configs';

/** A push configuration the relay keeps for a caller (T40); credentials sealed. */
export interface StoredPushConfig {
  id: string;
  tenantId: string;
  callerId: string;
  targetId: string;
  taskId?: string;
  configId?: string;
  url: string;
  credentialsCiphertext?: string;
  tokenSha256: string;
}

@Injectable()
export class PushConfigsRepository {
  /** The target keeps only the latest of an id, so an older callback would never be used. */
  async insert(tx: Tx, config: StoredPushConfig): Promise<void> {
    if (config.taskId && config.configId) {
      await tx.query(
        `DELETE FROM ${T} WHERE tenant_id = $1 AND caller_id = $2 AND target_id = $3
           AND task_id = $4 AND config_id = $5`,
        [config.tenantId, config.callerId, config.targetId, config.taskId, config.configId],
      );
    }
    await tx.query(
      `INSERT INTO ${T} (id, tenant_id, caller_id, target_id, task_id, config_id, url,
         credentials_ciphertext, token_sha256)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        config.id,
        config.tenantId,
        config.callerId,
        config.targetId,
        config.taskId ?? null,
        config.configId ?? null,
        config.url,
        config.credentialsCiphertext ?? null,
        config.tokenSha256,
      ],
    );
  }

  /** System scope: the configuration a callback names, whichever tenant it is of. */
  async findForCallback(tx: Tx, id: string): Promise<StoredPushConfig | undefined> {
    const rows: Row[] = await tx.query(`SELECT * FROM ${T} WHERE id = $1`, [id]);
    return rows[0] ? toConfig(rows[0]) : undefined;
  }

  async findById(tx: Tx, tenantId: string, id: string): Promise<StoredPushConfig | undefined> {
    const rows: Row[] = await tx.query(`SELECT * FROM ${T} WHERE tenant_id = $1 AND id = $2`, [
      tenantId,
      id,
    ]);
    return rows[0] ? toConfig(rows[0]) : undefined;
  }

  async findMany(
    tx: Tx,
    tenantId: string,
    callerId: string,
    targetId: string,
    ids: string[],
  ): Promise<StoredPushConfig[]> {
    if (ids.length === 0) {
      return [];
    }
    const rows: Row[] = await tx.query(
      `SELECT * FROM ${T} WHERE tenant_id = $1 AND caller_id = $2 AND target_id = $3 AND id = ANY($4)`,
      [tenantId, callerId, targetId, ids],
    );
    return rows.map(toConfig);
  }

  /** Fills in what was not known when the configuration was kept (a new task's id, T42). */
  async learn(
    tx: Tx,
    tenantId: string,
    id: string,
    facts: { taskId?: string; configId?: string },
  ): Promise<void> {
    await tx.query(
      `UPDATE ${T} SET task_id = coalesce(task_id, $3), config_id = coalesce(config_id, $4),
         updated_at = now()
       WHERE tenant_id = $1 AND id = $2 AND (task_id IS NULL OR config_id IS NULL)`,
      [tenantId, id, facts.taskId ?? null, facts.configId ?? null],
    );
  }

  /** T113: a push went through; `ended` when it said its task ended for good. */
  async pushed(tx: Tx, tenantId: string, id: string, ended: boolean): Promise<void> {
    await tx.query(
      `UPDATE ${T} SET last_push_at = now(),
         task_ended_at = CASE WHEN $3 THEN coalesce(task_ended_at, now()) ELSE task_ended_at END
       WHERE tenant_id = $1 AND id = $2`,
      [tenantId, id, ended],
    );
  }

  /**
   * T113, system scope: configurations whose task ended before `endedBefore`, or that saw nothing
   * (no push, no change) since `idleBefore`; how many went.
   */
  async pruneStale(tx: Tx, endedBefore: Date, idleBefore: Date): Promise<number> {
    const rows: Row[] = await tx.query(
      `WITH gone AS (
         DELETE FROM ${T}
          WHERE task_ended_at < $1
             OR greatest(updated_at, coalesce(last_push_at, updated_at)) < $2
          RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [endedBefore, idleBefore],
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** By id, or (0.3, no id) the one whose id defaults to the task's. */
  async deleteNamed(
    tx: Tx,
    tenantId: string,
    callerId: string,
    targetId: string,
    taskId: string,
    configId: string | undefined,
  ): Promise<number> {
    const rows = await returning(
      tx,
      `DELETE FROM ${T} WHERE tenant_id = $1 AND caller_id = $2 AND target_id = $3 AND task_id = $4
         AND coalesce(config_id, task_id) = $5 RETURNING id`,
      [tenantId, callerId, targetId, taskId, configId ?? taskId],
    );
    return rows.length;
  }

  async deleteById(tx: Tx, tenantId: string, id: string): Promise<void> {
    await tx.query(`DELETE FROM ${T} WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
  }

  /** Whether the agent has a webhook signing secret (D19), which signs the pushes it receives. */
  async hasSigningSecret(tx: Tx, tenantId: string, agentId: string): Promise<boolean> {
    const rows: Row[] = await tx.query(
      `SELECT 1 FROM relay.agents WHERE tenant_id = $1 AND id = $2 AND webhook_secret_ciphertext IS NOT NULL`,
      [tenantId, agentId],
    );
    return rows.length > 0;
  }
}

function toConfig(row: Row): StoredPushConfig {
  return {
    id: String(row.id),
    tenantId: String(row.tenant_id),
    callerId: String(row.caller_id),
    targetId: String(row.target_id),
    taskId: str(row.task_id),
    configId: str(row.config_id),
    url: String(row.url),
    credentialsCiphertext: str(row.credentials_ciphertext),
    tokenSha256: String(row.token_sha256),
  };
}
