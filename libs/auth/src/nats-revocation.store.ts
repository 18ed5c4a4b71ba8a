import { ReplicatedBucket } from '@agp/messaging';

import { MapRevocationStore } from './revocations';

export interface NatsRevocationOptions {
  natsUrl: string;
  /** `NATS_PREFIX`: the bucket is `<prefix>_revocations`, so environments and test runs stay apart. */
  prefix: string;
}

/** I2: a bucket every process holds in full, so replicas disagree at most one watch delivery long. */
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
