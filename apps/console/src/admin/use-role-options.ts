import { useQuery } from '@tanstack/react-query';

import { admin } from '../api/admin-api';

export interface RoleOptions {
  options: Array<{ value: string; label: string }>;
  nameOf: (id: string) => string;
}

/** The tenant's roles as choices, and a role's name for its id. */
export function useRoleOptions(): RoleOptions {
  const roles = useQuery({ queryKey: ['roles'], queryFn: admin.roles });
  const options = (roles.data?.items ?? []).map((r) => ({ value: r.id, label: r.name }));
  return { options, nameOf: (id) => options.find((o) => o.value === id)?.label ?? id };
}
