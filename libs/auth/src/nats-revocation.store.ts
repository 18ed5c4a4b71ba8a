import { ReplicatedBucket } from '@agp/messaging';

import { MapRevocationStore } from './revocations';

export interface NatsRevocationOptions {
  natsUrl: string;
  /** `NATS_PREFIX`: the bucket is `<prefix>_revocations`, so environments and test runs stay apart. */
  prefix: string;
}

/**
 * identity.md I2: revocations live in a JetStream key-value bucket that every process of every
 * service holds in full (`ReplicatedBucket` of `@agp/messaging`, which orders entries by revision),
 * so no replica contradicts another for longer than a watch delivery takes.
 */
export class NatsRevocationStore extends MapRevocationStore {
  private constructor(private readonly bucket: ReplicatedBucket) {
    super();
  }

  static bucketName(prefix: string): string {
    return `${prefix}_revocations`;
  }

  /** Resolves once every revocation in the bucket is loaded; updates keep arriving after. */
  static async connect(options: NatsRevocationOptions): Promise<NatsRevocationStore> {
    const bucket = await ReplicatedBucket.open({
      natsUrl: options.natsUrl,
      bucket: NatsRevocationStore.bucketName(options.prefix),
      connectionName: `agp-${options.prefix}-revocations`,
    });
    return new NatsRevocationStore(bucket);
  }

  entries(): ReadonlyMap<string, string> {
    return this.bucket.entries();
  }

  revoke(key: string, reason: string): Promise<void> {
    return this.bucket.put(key, reason);
  }

  restore(key: string): Promise<void> {
    return this.bucket.delete(key);
  }

  close(): Promise<void> {
    return this.bucket.close();
  }
}
