import { Row, Tx } from '@agp/database';

import { ChannelSettings } from './channel-config';

/** A channel's kind, settings and sealed secrets: what an update merges into (D56, CH1). */
export interface StoredChannel {
  kind: string;
  settings: ChannelSettings;
  sealedSecrets: string | null;
}

/** CH19: a write of secrets made from what was read names it, so a change in between is a 409. */
export const SECRETS_READ = 'secretsRead';

/** The one read of a channel that the registry's catalog does not answer: its sealed secrets. */
export class ChannelsRepository {
  /** CH19: the sealed secrets as they are now, the row locked until the write's commit. */
  async lockedSecrets(tx: Tx, tenantId: string, id: string): Promise<string | null | undefined> {
    const rows: Row[] = await tx.query(
      `SELECT secrets_ciphertext FROM relay.channels WHERE tenant_id = $1 AND id = $2 FOR UPDATE`,
      [tenantId, id],
    );
    return rows[0] ? ((rows[0].secrets_ciphertext as string | null) ?? null) : undefined;
  }

  async stored(tx: Tx, tenantId: string, id: string): Promise<StoredChannel | undefined> {
    const rows: Row[] = await tx.query(
      `SELECT kind, config, secrets_ciphertext FROM relay.channels WHERE tenant_id = $1 AND id = $2`,
      [tenantId, id],
    );
    if (!rows[0]) {
      return undefined;
    }
    return {
      kind: String(rows[0].kind),
      settings: (rows[0].config as ChannelSettings | null) ?? {},
      sealedSecrets: (rows[0].secrets_ciphertext as string | null) ?? null,
    };
  }
}
