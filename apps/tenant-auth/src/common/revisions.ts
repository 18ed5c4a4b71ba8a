/** The revision an identity's lifecycle event carries (issue 30). */
export function revisionAfter(identity: { revision: number }, change: string): number {
  return change === 'DELETED' ? identity.revision + 1 : identity.revision;
}
