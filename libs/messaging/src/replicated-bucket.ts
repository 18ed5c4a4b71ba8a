import { KV, KvEntry, Kvm } from '@nats-io/kv';
import { NatsConnection, connect } from '@nats-io/transport-node';

import { natsConnectionOptions } from './nats-connection';

export interface ReplicatedBucketOptions {
  natsUrl: string;
  bucket: string;
  connectionName: string;
}

/** Never a source of truth of its own: replicas disagree at most one watch delivery long. */
export class ReplicatedBucket {
  private readonly values = new Map<string, string>();
  private readonly revisions = new Map<string, number>();
  private watchLoop: Promise<void> = Promise.resolve();
  private stopWatch: () => void = () => undefined;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly kv: KV,
  ) {}

  /** Resolves once every entry of the bucket is loaded; changes keep arriving after. */
  static async open(options: ReplicatedBucketOptions): Promise<ReplicatedBucket> {
    const nc = await connect(natsConnectionOptions(options.natsUrl, options.connectionName));
    try {
      const kv = await new Kvm(nc).create(options.bucket, { history: 1 });
      const bucket = new ReplicatedBucket(nc, kv);
      await bucket.load();
      return bucket;
    } catch (error) {
      await nc.close();
      throw error;
    }
  }

  /** Every entry this replica knows: the bucket as of the last watch delivery. */
  entries(): ReadonlyMap<string, string> {
    return this.values;
  }

  async put(key: string, value: string): Promise<void> {
    const revision = await this.kv.put(key, value);
    this.apply(key, revision, value);
  }

  async delete(key: string): Promise<void> {
    await this.kv.delete(key);
    // The delete marker's revision orders it against a put another process races with.
    const entry = await this.kv.get(key);
    if (entry) {
      this.applyEntry(entry);
    } else {
      this.values.delete(key);
    }
  }

  async close(): Promise<void> {
    this.stopWatch();
    await this.watchLoop.catch(() => undefined);
    if (!this.nc.isClosed()) {
      await this.nc.drain();
    }
  }

  private async load(): Promise<void> {
    const watcher = await this.kv.watch({ key: '>' });
    this.stopWatch = () => watcher.stop();
    this.watchLoop = (async () => {
      for await (const entry of watcher) {
        this.applyEntry(entry);
      }
    })();
    for await (const key of await this.kv.keys()) {
      const entry = await this.kv.get(key);
      if (entry) {
        this.applyEntry(entry);
      }
    }
  }

  private applyEntry(entry: KvEntry): void {
    this.apply(entry.key, entry.revision, entry.operation === 'PUT' ? entry.string() : undefined);
  }

  private apply(key: string, revision: number, value: string | undefined): void {
    if ((this.revisions.get(key) ?? 0) > revision) {
      return;
    }
    this.revisions.set(key, revision);
    if (value === undefined) {
      this.values.delete(key);
    } else {
      this.values.set(key, value);
    }
  }
}
