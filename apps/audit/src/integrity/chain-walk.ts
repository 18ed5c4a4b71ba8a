import { ChainedEvent } from '../events/audit-event.types';
import { chainHash } from './chain-hash';

export const BREAK_REASONS = [
  'HASH_MISMATCH',
  'SEQUENCE_GAP',
  'DUPLICATE_SEQUENCE',
  'TRUNCATED',
  'HEAD_MISMATCH',
  'CHECKPOINT_MISMATCH',
  'CHECKPOINT_SIGNATURE_INVALID',
] as const;
export type BreakReason = (typeof BREAK_REASONS)[number];

export interface ChainBreak {
  reason: BreakReason;
  eventId: string | null;
  recordedAt: string | null;
}

/** Where a walk started and what it found: what a segment walked apart hands back (A14). */
export interface ChainWalkState {
  startSeq: number;
  startHash: Uint8Array;
  checked: number;
  broken?: ChainBreak;
  lastSeq: number;
  lastHash: Uint8Array;
  lastEvent?: { id: string; recordedAt: string };
  hashesAt: Array<{ seq: number; hash: Uint8Array; eventId: string; recordedAt: string }>;
}

/** Walks one chain in sequence order (A6). */
export class ChainWalk {
  private previousHash: Buffer;
  private previousSeq: number;
  private firstBreak?: ChainBreak;
  lastEvent?: { id: string; recordedAt: string };
  checked = 0;
  readonly hashesAt = new Map<number, { hash: Buffer; eventId: string; recordedAt: string }>();

  constructor(
    private readonly startSeq: number,
    private readonly startHash: Buffer,
    private readonly watched: ReadonlySet<number>,
  ) {
    this.previousSeq = startSeq;
    this.previousHash = startHash;
  }

  get broken(): ChainBreak | undefined {
    return this.firstBreak;
  }

  get lastSeq(): number {
    return this.previousSeq;
  }

  get lastHash(): Buffer {
    return this.previousHash;
  }

  /** False once the chain is broken (the walk can stop). */
  accept(event: ChainedEvent): boolean {
    if (this.firstBreak) {
      return false;
    }
    this.checked += 1;
    if (event.seq === this.previousSeq) {
      return this.fail('DUPLICATE_SEQUENCE', event);
    }
    if (event.seq !== this.previousSeq + 1) {
      return this.fail('SEQUENCE_GAP', event);
    }
    const expected = chainHash(this.previousHash, event);
    if (!expected.equals(event.hash)) {
      return this.fail('HASH_MISMATCH', event);
    }
    this.previousSeq = event.seq;
    this.previousHash = event.hash;
    this.lastEvent = { id: event.id, recordedAt: event.recordedAt };
    if (this.watched.has(event.seq)) {
      this.hashesAt.set(event.seq, {
        hash: event.hash,
        eventId: event.id,
        recordedAt: event.recordedAt,
      });
    }
    return true;
  }

  state(): ChainWalkState {
    return {
      startSeq: this.startSeq,
      startHash: this.startHash,
      checked: this.checked,
      broken: this.firstBreak,
      lastSeq: this.previousSeq,
      lastHash: this.previousHash,
      lastEvent: this.lastEvent,
      hashesAt: [...this.hashesAt].map(([seq, at]) => ({ seq, ...at })),
    };
  }

  /** Continues this walk with a segment walked apart that starts where this walk stands. */
  absorb(segment: ChainWalkState): void {
    if (this.firstBreak) {
      return;
    }
    if (segment.startSeq !== this.previousSeq || !this.previousHash.equals(segment.startHash)) {
      throw new Error(
        `chain segment starts at ${segment.startSeq}, the walk stands at ${this.previousSeq}`,
      );
    }
    this.checked += segment.checked;
    for (const at of segment.hashesAt) {
      this.hashesAt.set(at.seq, {
        hash: Buffer.from(at.hash),
        eventId: at.eventId,
        recordedAt: at.recordedAt,
      });
    }
    this.previousSeq = segment.lastSeq;
    this.previousHash = Buffer.from(segment.lastHash);
    this.lastEvent = segment.lastEvent ?? this.lastEvent;
    this.firstBreak = segment.broken;
  }

  fail(reason: BreakReason, event?: { id: string; recordedAt: string }): false {
    this.firstBreak ??= {
      reason,
      eventId: event?.id ?? null,
      recordedAt: event?.recordedAt ?? null,
    };
    return false;
  }
}
