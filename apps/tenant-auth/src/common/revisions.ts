/**
 * The revision an identity's lifecycle event carries (issue 30): the row's after its change, one
 * more for a deletion (the row is gone; the tombstone must outrank every earlier event).
 */
export function revisionAfter(identity: { revision: number }, change: string): number {
  return change === 'DELETED' ? identity.revision + 1 : identity.revision;
}
