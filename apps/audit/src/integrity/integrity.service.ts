import { Inject, Injectable } from '@nestjs/common';
import { Database, Tx } from '@agp/database';

import { AUDIT_DATABASE } from '../database/tokens';
import { EventFamily } from '../events/event-families';
import { canonicalJson } from './canonical-json';
import { GENESIS_HASH } from './chain-hash';
import { CopyColumn, SegmentJob } from './chain-segment';
import { ChainBreak, ChainWalk, ChainWalkState } from './chain-walk';
import { ChainWalkers } from './chain-walkers';
import { Checkpoint } from './checkpoint.types';
import { CheckpointsRepository } from './checkpoints.repository';
import { ChainPoint, IntegrityRepository } from './integrity.repository';
import { segmentsOf } from './segments-of';
import { SigningKeysService } from './signing-keys.service';

export interface VerificationResult {
  verified: boolean;
  checkedCount: number;
  firstBrokenEventId: string | null;
  reason: ChainBreak['reason'] | null;
  checkpointsChecked: number;
}

type Walked = { state?: ChainWalkState; error?: Error };

const asError = (error: unknown): Error =>
  error instanceof Error ? error : new Error(String(error));

/** Segments of about 1 MiB of COPY text (~1,500 events): small enough to keep every walker busy. */
const SEGMENT_BYTES = 1 << 20;

/** `GET /audit/v1/integrity/verify` (issue 5, item 5). */
@Injectable()
export class IntegrityService {
  constructor(
    @Inject(AUDIT_DATABASE) private readonly database: Database,
    @Inject(IntegrityRepository) private readonly repository: IntegrityRepository,
    @Inject(CheckpointsRepository) private readonly checkpoints: CheckpointsRepository,
    @Inject(SigningKeysService) private readonly keys: SigningKeysService,
    @Inject(ChainWalkers) private readonly walkers: ChainWalkers,
  ) {}

  async verify(tenantId: string, from?: Date, to?: Date): Promise<VerificationResult> {
    const snapshot = await this.database.inTenant(tenantId, async (tx) => {
      // Checkpoints before heads: a head read later is never behind a checkpoint read earlier.
      const all = await this.checkpoints.allOf(tx, tenantId);
      const checkpoints = to ? all.filter((c) => new Date(c.createdAt) < to) : all;
      const heads = await this.repository.heads(tx, tenantId);
      const anchors = new Map(
        (await this.repository.anchors(tx, tenantId)).map((a) => [a.family, a]),
      );
      const columns = heads.length > 0 ? await this.repository.chainColumns(tx) : [];
      const breaks: ChainBreak[] = [];
      let checkedCount = 0;
      for (const head of heads) {
        const walk = await this.walkFamily(
          tx,
          tenantId,
          { head, anchor: anchors.get(head.family), columns },
          checkpoints,
          from,
          to,
        );
        checkedCount += walk?.checked ?? 0;
        if (walk?.broken) {
          breaks.push(walk.broken);
        }
      }
      // A chain a signed checkpoint knows but whose head is gone was removed whole.
      const walked = new Set(heads.map((h) => h.family));
      const vanished = checkpoints.find((c) => c.heads.some((h) => !walked.has(h.family)));
      if (vanished) {
        breaks.push({ reason: 'TRUNCATED', eventId: null, recordedAt: vanished.createdAt });
      }
      return { checkpoints, breaks, checkedCount };
    });
    // Signatures are checked outside the transaction (keys are read in one of their own). A forged
    // checkpoint is reported first: the chain was compared with values nobody signed.
    const forged = await this.firstForged(tenantId, snapshot.checkpoints);
    const first =
      forged ??
      snapshot.breaks.sort((a, b) => (a.recordedAt ?? '~').localeCompare(b.recordedAt ?? '~'))[0];
    return {
      verified: !first,
      checkedCount: snapshot.checkedCount,
      firstBrokenEventId: first?.eventId ?? null,
      reason: first?.reason ?? null,
      checkpointsChecked: snapshot.checkpoints.length,
    };
  }

  private async firstForged(
    tenantId: string,
    checkpoints: Checkpoint[],
  ): Promise<ChainBreak | undefined> {
    for (const checkpoint of checkpoints) {
      const payload = await this.keys.verified(checkpoint.jws);
      const isGenuine =
        payload !== undefined &&
        payload.tenantId === tenantId &&
        payload.checkpointId === checkpoint.id &&
        canonicalJson(payload.heads) === canonicalJson(checkpoint.heads);
      if (!isGenuine) {
        return {
          reason: 'CHECKPOINT_SIGNATURE_INVALID',
          eventId: null,
          recordedAt: checkpoint.createdAt,
        };
      }
    }
    return undefined;
  }

  private async walkFamily(
    tx: Tx,
    tenantId: string,
    {
      head,
      anchor,
      columns,
    }: { head: ChainPoint; anchor: ChainPoint | undefined; columns: CopyColumn[] },
    checkpoints: Checkpoint[],
    from?: Date,
    to?: Date,
  ): Promise<ChainWalk | undefined> {
    const floor = anchor?.seq ?? 0;
    const bounds =
      from || to ? await this.repository.seqBounds(tx, tenantId, head.family, from, to) : undefined;
    if ((from || to) && !bounds) {
      return undefined;
    }
    const startSeq = Math.max((bounds?.min ?? floor + 1) - 1, floor);
    const endSeq = to ? (bounds?.max ?? head.seq) : head.seq;
    const committed = this.committedSeqs(checkpoints, head.family);
    const watched = [...committed.keys()]
      .filter((seq) => seq > startSeq && seq <= endSeq)
      .sort((a, b) => a - b);
    const startHash = await this.startHash(tx, tenantId, head.family, startSeq, anchor);
    const walk = new ChainWalk(startSeq, startHash ?? GENESIS_HASH, new Set(watched));
    if (startHash) {
      const rows = await this.repository.chainRows(tx, tenantId, head.family, startSeq, endSeq);
      await this.walkSegments(walk, rows, {
        columns,
        start: { seq: startSeq, hash: startHash },
        watched,
      });
    } else {
      walk.fail('SEQUENCE_GAP');
    }
    this.checkAgainstCheckpoints(walk, committed, startSeq);
    if (!walk.broken && !to) {
      this.checkAgainstHead(walk, head, committed);
    }
    return walk;
  }

  /** A14: the chain's rows are cut into segments that the walker threads check at the same time. */
  private async walkSegments(
    walk: ChainWalk,
    rows: AsyncIterable<Buffer>,
    chain: { columns: CopyColumn[]; start: SegmentJob['start']; watched: number[] },
  ): Promise<void> {
    let failure: Error | undefined;
    let absorbed = Promise.resolve();
    let start = chain.start;
    let watchedDone = 0;
    for await (const segment of segmentsOf(rows, SEGMENT_BYTES, chain.columns)) {
      if (walk.broken || failure) {
        continue;
      }
      // Segments come in sequence order: each takes the watched numbers up to its last.
      const watchedFrom = watchedDone;
      while (
        watchedDone < chain.watched.length &&
        (chain.watched[watchedDone] ?? 0) <= segment.lastSeq
      ) {
        watchedDone += 1;
      }
      await this.walkers.ready();
      const walked = this.walkers
        .walk({
          columns: chain.columns,
          rows: segment.rows,
          start,
          watched: chain.watched.slice(watchedFrom, watchedDone),
        })
        .then<Walked, Walked>(
          (state) => ({ state }),
          (error: unknown) => ({ error: asError(error) }),
        );
      start = undefined;
      absorbed = absorbed.then(async () => {
        const { state, error } = await walked;
        failure ??= error;
        if (state && !failure) {
          walk.absorb(state);
        }
      });
      absorbed = absorbed.catch((error: unknown) => {
        failure ??= asError(error);
      });
    }
    await absorbed;
    if (failure) {
      throw failure;
    }
  }

  private checkAgainstCheckpoints(
    walk: ChainWalk,
    committed: Map<number, string>,
    startSeq: number,
  ): void {
    const seqs = [...walk.hashesAt.keys()].sort((a, b) => a - b);
    for (const seq of seqs) {
      const seen = walk.hashesAt.get(seq);
      if (seen && seq > startSeq && seen.hash.toString('hex') !== committed.get(seq)) {
        walk.fail('CHECKPOINT_MISMATCH', { id: seen.eventId, recordedAt: seen.recordedAt });
        return;
      }
    }
  }

  private checkAgainstHead(
    walk: ChainWalk,
    head: ChainPoint,
    committed: Map<number, string>,
  ): void {
    const highestCommitted = Math.max(0, ...committed.keys());
    if (walk.lastSeq < head.seq || walk.lastSeq < highestCommitted) {
      walk.fail('TRUNCATED', walk.lastEvent);
    } else if (!walk.lastHash.equals(head.hash)) {
      walk.fail('HEAD_MISMATCH', walk.lastEvent);
    }
  }

  private committedSeqs(checkpoints: Checkpoint[], family: EventFamily): Map<number, string> {
    const committed = new Map<number, string>();
    for (const checkpoint of checkpoints) {
      for (const head of checkpoint.heads) {
        if (head.family === family) {
          committed.set(head.seq, head.hash);
        }
      }
    }
    return committed;
  }

  private async startHash(
    tx: Tx,
    tenantId: string,
    family: EventFamily,
    startSeq: number,
    anchor?: ChainPoint,
  ): Promise<Buffer | undefined> {
    if (startSeq === 0) {
      return GENESIS_HASH;
    }
    if (anchor && anchor.seq === startSeq) {
      return anchor.hash;
    }
    return this.repository.hashAt(tx, tenantId, family, startSeq);
  }
}
