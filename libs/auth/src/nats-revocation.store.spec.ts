import { randomUUID } from 'node:crypto';

import { deleteNatsStreams } from '@agp/messaging/testing';
import { TEST_NATS_URL, eventually, uniqueNatsPrefix } from '@agp/testing';

import { NatsRevocationStore } from './nats-revocation.store';
import { Principal } from './principal';
import { revocationKey } from './revocations';

describe(NatsRevocationStore.name, () => {
  const prefix = uniqueNatsPrefix('revoke');
  const stores: NatsRevocationStore[] = [];
  const principal = (tenantId: string, subject: string): Principal => ({
    kind: 'AGENT',
    subject,
    tenantId,
    permissions: new Set(),
    scopes: [],
    label: 'a',
    tokenId: randomUUID(),
    expiresAt: 0,
  });

  const open = async (): Promise<NatsRevocationStore> => {
    const store = await NatsRevocationStore.connect({ natsUrl: TEST_NATS_URL, prefix });
    stores.push(store);
    return store;
  };

  afterAll(async () => {
    for (const store of stores) {
      await store.close();
    }
    await deleteNatsStreams(prefix, TEST_NATS_URL);
  });

  it('should show a revocation written by one process to another, and its lifting too', async () => {
    const [writer, reader] = [await open(), await open()];
    const caller = principal(randomUUID(), randomUUID());
    await writer.revoke(revocationKey('AGENT', caller.subject), 'DELETED');
    expect(writer.reasonFor(caller)).toBe('DELETED');
    await eventually(() => expect(reader.reasonFor(caller)).toBe('DELETED'));
    await writer.restore(revocationKey('AGENT', caller.subject));
    await eventually(() => expect(reader.reasonFor(caller)).toBeUndefined());
  });

  it('should know every revocation at once when it starts after they were written', async () => {
    const writer = await open();
    const caller = principal(randomUUID(), randomUUID());
    await writer.revoke(revocationKey('TENANT', caller.tenantId), 'SUSPENDED');
    const late = await open();
    expect(late.reasonFor(caller)).toBe('SUSPENDED');
    expect(late.reasonFor(principal(randomUUID(), caller.subject))).toBeUndefined();
  });
});
