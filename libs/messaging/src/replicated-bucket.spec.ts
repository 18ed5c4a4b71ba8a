import { TEST_NATS_URL, eventually, uniqueNatsPrefix } from '@agp/testing';

import { deleteNatsStreams } from './testing';
import { ReplicatedBucket } from './replicated-bucket';

describe(ReplicatedBucket.name, () => {
  const prefix = uniqueNatsPrefix('bucket');
  const buckets: ReplicatedBucket[] = [];

  const open = async (name = 'shared'): Promise<ReplicatedBucket> => {
    const bucket = await ReplicatedBucket.open({
      natsUrl: TEST_NATS_URL,
      bucket: `${prefix}_${name}`,
      connectionName: `test-${prefix}`,
    });
    buckets.push(bucket);
    return bucket;
  };

  afterAll(async () => {
    for (const bucket of buckets) {
      await bucket.close();
    }
    await deleteNatsStreams(prefix, TEST_NATS_URL);
  });

  it('should show a put and a delete of one replica to another', async () => {
    const [writer, reader] = [await open(), await open()];

    await writer.put('AGENT.a', 'DELETED');
    expect(writer.entries().get('AGENT.a')).toBe('DELETED');
    await eventually(() => expect(reader.entries().get('AGENT.a')).toBe('DELETED'));

    await writer.delete('AGENT.a');
    expect(writer.entries().has('AGENT.a')).toBe(false);
    await eventually(() => expect(reader.entries().has('AGENT.a')).toBe(false));
  });

  it('should hold every entry when it opens after they were written', async () => {
    const writer = await open('late');
    await writer.put('TENANT.t', 'SUSPENDED');
    await writer.put('USER.u', 'DISABLED');
    await writer.delete('USER.u');

    const late = await open('late');

    expect([...late.entries()]).toEqual([['TENANT.t', 'SUSPENDED']]);
  });

  it('should keep the newest revision when two replicas write one key', async () => {
    const [first, second] = [await open('race'), await open('race')];

    await first.put('AGENT.b', 'SUSPENDED');
    await second.delete('AGENT.b');
    await first.put('AGENT.b', 'DELETED');

    for (const replica of [first, second]) {
      await eventually(() => expect(replica.entries().get('AGENT.b')).toBe('DELETED'));
    }
  });
});
