import { ChainedEvent } from '../audit-event.types';

/** An audit event as the API answers it (issue 5, item 1), with its place in the chain. */
export type AuditEventResponseDto = Omit<ChainedEvent, 'hash' | 'family' | 'seq'> & {
  chain: { family: string; sequence: number; hash: string };
};

export function toEventResponse(event: ChainedEvent): AuditEventResponseDto {
  const { hash, family, seq, ...rest } = event;
  return { ...rest, chain: { family, sequence: seq, hash: hash.toString('hex') } };
}
