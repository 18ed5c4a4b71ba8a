import { randomUUID } from 'node:crypto';

import { Database } from '@agp/database';

import {
  MigratedRelayDatabase,
  migratedRelayDatabase,
} from '../../../../test/support/migrated-relay-database';
import { McpInputMailbox } from './input-mailbox';
import { InputMailboxRepository, MailboxSlot } from './input-mailbox.repository';

/** traffic.md T101 on a real relay schema: what one replica waits for and another delivers. */
describe(InputMailboxRepository.name, () => {
  let relay: MigratedRelayDatabase;
  let database: Database;
  const sut = new InputMailboxRepository();
  const tenantA = randomUUID();
  const tenantB = randomUUID();

  beforeAll(async () => {
    relay = await migratedRelayDatabase('relay_mcp_mailbox');
    database = relay.database;
  });

  afterAll(() => relay?.close());

  async function opened(binding = ''): Promise<MailboxSlot> {
    const slot = {
      id: `agp-input-${randomUUID()}`,
      tenantId: tenantA,
      partyId: 'agent-1',
      binding,
    };
    await database.inTenant(tenantA, (tx) => sut.open(tx, [slot]));
    return slot;
  }

  const fill = (tenantId: string, slot: MailboxSlot, message: unknown): Promise<boolean> =>
    database.inTenant(tenantId, (tx) => sut.fill(tx, { ...slot, tenantId }, message));
  const take = (ids: string[]): Promise<{ id: string; message: unknown }[]> =>
    database.asSystem((tx) => sut.takeFilled(tx, ids));

  it('should fill a slot once and hand its message over once', async () => {
    const slot = await opened();

    const first = await fill(tenantA, slot, { result: { action: 'accept' } });
    const second = await fill(tenantA, slot, { result: { action: 'decline' } });
    const taken = await take([slot.id]);
    const again = await take([slot.id]);

    expect([first, second]).toEqual([true, false]);
    expect(taken).toEqual([{ id: slot.id, message: { result: { action: 'accept' } } }]);
    expect(again).toEqual([]);
  });

  it('should not let another tenant, another party or another binding fill a slot', async () => {
    const slot = await opened('digest-of-the-call');

    const byTenantB = await fill(tenantB, slot, { result: {} });
    const byTenantBAsA = await database.inTenant(tenantB, (tx) => sut.fill(tx, slot, {}));
    const byOtherParty = await fill(tenantA, { ...slot, partyId: 'agent-2' }, { result: {} });
    const byOtherBinding = await fill(tenantA, { ...slot, binding: 'another-call' }, {});
    const byOwner = await fill(tenantA, slot, { result: {} });

    expect([byTenantB, byTenantBAsA, byOtherParty, byOtherBinding, byOwner]).toEqual([
      false,
      false,
      false,
      false,
      true,
    ]);
  });

  it('should leave an empty slot where it is until it is dropped', async () => {
    const slot = await opened();

    const taken = await take([slot.id]);
    await database.asSystem((tx) => sut.drop(tx, [slot.id]));
    const filledAfterDrop = await fill(tenantA, slot, { result: {} });

    expect(taken).toEqual([]);
    expect(filledAfterDrop).toBe(false);
  });

  it('should sweep a forgotten slot of another tenant when a tenant opens one', async () => {
    const forgotten = await opened();
    await database.asSystem((tx) =>
      tx.query(
        `UPDATE relay.mcp_input_mailbox SET created_at = now() - interval '2 days' WHERE id = $1`,
        [forgotten.id],
      ),
    );
    const mailbox = new McpInputMailbox(database);

    await mailbox.open(tenantB, [
      { id: `agp-input-${randomUUID()}`, partyId: 'agent-9', binding: '' },
    ]);
    const filledAfterSweep = await fill(tenantA, forgotten, { result: {} });

    expect(filledAfterSweep).toBe(false);
  });
});
