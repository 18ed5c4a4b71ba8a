import { KV, KvEntry, Kvm } from '@nats-io/kv';
import { NatsConnection, connect } from '@nats-io/transport-node';

import { MapRevocationStore } from './revocations';

export interface NatsRevocationOptions {
  natsUrl: string;
  /** `NATS_PREFIX`: the bucket is `<prefix>_revocations`, so environments and test runs stay apart. */
  prefix: string;
}

/**
 * identity.md I2: revocations live in a NATS JetStream key-value bucket that every process of every
 * service watches in full (no queue group: each replica sees every key). The local map is a
 * replica of the bucket, never a source of truth of its own, so no replica can contradict another
 * for longer than a watch delivery takes.
 */
export class NatsRevocationStore extends MapRevocationStore {
  /** Last revision applied per key: a late `get` never undoes a newer watch entry, nor the reverse. */
  private readonly revisions = new Map<string, number>();
  private watchLoop: Promise<void> = Promise.resolve();
  private stopWatch: () => void = () => undefined;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly kv: KV,
  ) {
    super();
  }

  static bucketName(prefix: string): string {
    return `${prefix}_revocations`;
  }

  /** Resolves once every revocation in the bucket is loaded; updates keep arriving after. */
  static async connect(options: NatsRevocationOptions): Promise<NatsRevocationStore> {
    const nc = await connect({
      servers: options.natsUrl,
      name: `agp-${options.prefix}-revocations`,
      reconnect: true,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
    });
    try {
      const kv = await new Kvm(nc).create(NatsRevocationStore.bucketName(options.prefix), {
        history: 1,
      });
      const store = new NatsRevocationStore(nc, kv);
      await store.start();
      return store;
    } catch (error) {
      await nc.close();
      throw error;
    }
  }

  private async start(): Promise<void> {
    // Watch first, then read what is there: whatever changes in between arrives through the watch.
    const watcher = await this.kv.watch({ key: '>' });
    this.stopWatch = () => watcher.stop();
    this.watchLoop = (async () => {
      for await (const entry of watcher) {
        this.apply(entry);
      }
    })();
    const keys = await this.kv.keys();
    for await (const key of keys) {
      const entry = await this.kv.get(key);
      if (entry) {
        this.apply(entry);
      }
    }
  }

  private apply(entry: KvEntry): void {
    if ((this.revisions.get(entry.key) ?? 0) > entry.revision) {
      return;
    }
    this.revisions.set(entry.key, entry.revision);
    if (entry.operation === 'PUT') {
      this.revoked.set(entry.key, entry.string());
    } else {
      this.revoked.delete(entry.key);
    }
  }

  async revoke(key: string, reason: string): Promise<void> {
    const revision = await this.kv.put(key, reason);
    this.applyLocal(key, revision, reason);
  }

  async restore(key: string): Promise<void> {
    await this.kv.delete(key);
    const entry = await this.kv.get(key);
    if (entry) {
      this.apply(entry);
    } else {
      this.revoked.delete(key);
    }
  }

  private applyLocal(key: string, revision: number, reason: string): void {
    if ((this.revisions.get(key) ?? 0) <= revision) {
      this.revisions.set(key, revision);
      this.revoked.set(key, reason);
    }
  }

  async close(): Promise<void> {
    this.stopWatch();
    await this.watchLoop.catch(() => undefined);
    if (!this.nc.isClosed()) {
      await this.nc.drain();
    }
  }
}
