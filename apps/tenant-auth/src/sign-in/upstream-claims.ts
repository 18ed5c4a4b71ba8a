/** What tenant-auth takes from an identity provider's ID token (identity.md I17). */
export interface UpstreamClaims {
  email: string;
  name: string;
  /** False only when the provider says the address is not verified (Entra sends no such claim). */
  isEmailVerified: boolean;
  groups: string[];
}

export function readUpstreamClaims(claims: Record<string, unknown> | undefined): UpstreamClaims {
  const email = typeof claims?.email === 'string' ? claims.email.trim().toLowerCase() : '';
  if (!email.includes('@')) {
    throw new Error('the ID token carries no e-mail address');
  }
  const name = typeof claims?.name === 'string' && claims.name.trim() ? claims.name.trim() : email;
  const groups = Array.isArray(claims?.groups)
    ? claims.groups.filter((g): g is string => typeof g === 'string')
    : [];
  return {
    email,
    name: name.slice(0, 200),
    isEmailVerified: claims?.email_verified !== false,
    groups,
  };
}

/** Groups no mapping names are never touched (an administrator's own memberships stay) (D29). */
export function groupChanges(
  mappings: Record<string, string[]>,
  upstreamGroups: readonly string[],
  existingGroupIds: ReadonlySet<string>,
): { add: string[]; remove: string[] } {
  const member = new Set(upstreamGroups);
  const add = new Set<string>();
  const mapped = new Set<string>();
  for (const [upstream, ours] of Object.entries(mappings)) {
    for (const groupId of ours.filter((id) => existingGroupIds.has(id))) {
      mapped.add(groupId);
      if (member.has(upstream)) {
        add.add(groupId);
      }
    }
  }
  return { add: [...add].sort(), remove: [...mapped].filter((id) => !add.has(id)).sort() };
}
