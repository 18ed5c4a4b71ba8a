import { Row, Tx } from '@agp/database';

/** Who may fill a slot: the tenant's same agent or person, with the same binding (T101, T102). */
export interface MailboxSlot {
  id: string;
  tenantId: string;
  partyId: string;
  /** What the filler must present too (a held call's request digest); '' binds nothing more. */
  binding: string;
}

/** A slot nobody took (its replica stopped) is removed after this long. */
const FORGOTTEN_AFTER = `interval '1 day'`;

export class InputMailboxRepository {
  /** Run as the system: a slot of any tenant nobody took (its replica stopped). */
  async forgetUnused(tx: Tx): Promise<void> {
    await tx.query(
      `DELETE FROM relay.mcp_input_mailbox WHERE created_at < now() - ${FORGOTTEN_AFTER}`,
    );
  }

  async open(tx: Tx, slots: readonly MailboxSlot[]): Promise<void> {
    for (const slot of slots) {
      await tx.query(
        `INSERT INTO relay.mcp_input_mailbox (id, tenant_id, party_id, binding)
         VALUES ($1, $2, $3, $4)`,
        [slot.id, slot.tenantId, slot.partyId, slot.binding],
      );
    }
  }

  /** True when the slot was open and empty: each slot is filled once. */
  async fill(tx: Tx, slot: MailboxSlot, message: unknown): Promise<boolean> {
    const rows: Row[] = await tx.query(
      `WITH filled AS (
         UPDATE relay.mcp_input_mailbox SET message = $5::jsonb
          WHERE id = $1 AND tenant_id = $2 AND party_id = $3 AND binding = $4 AND message IS NULL
          RETURNING id)
       SELECT id FROM filled`,
      [slot.id, slot.tenantId, slot.partyId, slot.binding, JSON.stringify(message)],
    );
    return rows.length > 0;
  }

  /** The filled slots among `ids`, removed as they are read (any tenant's: ids are random). */
  async takeFilled(tx: Tx, ids: readonly string[]): Promise<{ id: string; message: unknown }[]> {
    const rows: Row[] = await tx.query(
      `WITH taken AS (
         DELETE FROM relay.mcp_input_mailbox WHERE id = ANY($1) AND message IS NOT NULL
          RETURNING id, message)
       SELECT id, message FROM taken`,
      [ids],
    );
    return rows.map((row) => ({ id: String(row.id), message: row.message }));
  }

  async drop(tx: Tx, ids: readonly string[]): Promise<void> {
    await tx.query(`DELETE FROM relay.mcp_input_mailbox WHERE id = ANY($1)`, [ids]);
  }
}
