import { ChangeTarget, EventParty, UserLifecycleChange, UserLifecycleData } from '@agp/contracts';

import { revisionAfter } from '../common/revisions';
import { User } from './user.types';

/** USER_LIFECYCLE's payload: other services keep their tenant's users from it (D4, D15). */
export function userLifecycleData(
  user: User,
  change: UserLifecycleChange,
  actor: EventParty,
): UserLifecycleData {
  return {
    actor,
    userId: user.id,
    email: user.email,
    displayName: user.displayName ?? undefined,
    change,
    status: change === 'DELETED' ? 'DELETED' : user.status,
    revision: revisionAfter(user, change),
    summary: `user ${user.email} ${change.toLowerCase()}`,
  };
}

/** The change a status edit means, or UPDATED when the status stays. */
export function statusChange(before: string, after: string): UserLifecycleChange {
  if (before === after) {
    return 'UPDATED';
  }
  return after === 'ACTIVE' ? 'ACTIVATED' : 'SUSPENDED';
}

/** A user as the target of its ADMIN_CHANGE (D42). */
export function userTarget(user: User): ChangeTarget {
  return { kind: 'USER', id: user.id, name: user.email };
}
