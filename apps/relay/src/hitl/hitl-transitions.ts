import { HitlStatus } from './hitl.types';

/** D34: PENDING → APPROVED | REJECTED | EXPIRED, then APPROVED → RELEASED once delivered. */
const NEXT: Readonly<Record<HitlStatus, readonly HitlStatus[]>> = {
  PENDING: ['APPROVED', 'REJECTED', 'EXPIRED'],
  APPROVED: ['RELEASED'],
  REJECTED: [],
  EXPIRED: [],
  RELEASED: [],
};

export function canMove(from: HitlStatus, to: HitlStatus): boolean {
  return NEXT[from].includes(to);
}
