import { createContext, useContext } from 'react';

import type { PermissionEntry } from '../api/platform';

/** Operation 2's answer: the caller's expanded permissions (D10). */
export const PermissionsContext = createContext<PermissionEntry[]>([]);

export function can(
  granted: PermissionEntry[],
  entity: string,
  permission: PermissionEntry['permission'],
): boolean {
  return granted.some((entry) => entry.entity === entity && entry.permission === permission);
}

/** Whether the signed-in user may do this: what they may not do is not offered. */
export function useCan(entity: string, permission: PermissionEntry['permission']): boolean {
  return can(useContext(PermissionsContext), entity, permission);
}
