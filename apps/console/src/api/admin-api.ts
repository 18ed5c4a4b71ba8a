import type { RetentionPolicy } from '@agp/audit';
import type {
  GroupMemberResponseDto,
  GroupResponseDto,
  IdentityProviderResponseDto,
  RoleResponseDto,
  UserResponseDto,
} from '@agp/tenant-auth';
import type { IdentityProviderType } from '@agp/contracts';

import { Page, api, query } from './client';
import type { PermissionEntry } from './platform';

const LIST = query({ pageSize: 100 });

const send = <T>(method: string, path: string, body: unknown = {}) =>
  api<T>(path, { method, body: JSON.stringify(body) });
const remove = (path: string) => api<void>(path, { method: 'DELETE' });

export interface NewIdentityProvider {
  alias: string;
  displayName: string;
  config: { type: IdentityProviderType; clientId: string; clientSecret: string; issuer?: string };
  groupMappings: Record<string, string[]>;
  emailDomains: string[];
  enabled: boolean;
}

/** Administration (tenant-auth's users, groups, roles, providers; the audit's retention). */
export const admin = {
  users: () => api<Page<UserResponseDto>>(`/tenant-auth/v1/users${LIST}`),
  createUser: (body: {
    email: string;
    displayName: string;
    password?: string;
    roleIds: string[];
  }) => send<UserResponseDto>('POST', '/tenant-auth/v1/users', body),
  deleteUser: (id: string) => remove(`/tenant-auth/v1/users/${id}`),

  groups: () => api<Page<GroupResponseDto>>(`/tenant-auth/v1/groups${LIST}`),
  createGroup: (body: { name: string; roleIds: string[] }) =>
    send<GroupResponseDto>('POST', '/tenant-auth/v1/groups', body),
  deleteGroup: (id: string) => remove(`/tenant-auth/v1/groups/${id}`),
  members: (groupId: string) =>
    api<Page<GroupMemberResponseDto>>(`/tenant-auth/v1/groups/${groupId}/members${LIST}`),

  roles: () => api<Page<RoleResponseDto>>(`/tenant-auth/v1/roles${LIST}`),
  createRole: (body: { name: string; permissions: PermissionEntry[] }) =>
    send<RoleResponseDto>('POST', '/tenant-auth/v1/roles', body),
  deleteRole: (id: string) => remove(`/tenant-auth/v1/roles/${id}`),

  identityProviders: () => api<IdentityProviderResponseDto[]>('/tenant-auth/v1/identity-providers'),
  createIdentityProvider: (body: NewIdentityProvider) =>
    send<IdentityProviderResponseDto>('POST', '/tenant-auth/v1/identity-providers', body),
  deleteIdentityProvider: (id: string) => remove(`/tenant-auth/v1/identity-providers/${id}`),
  verifyDomain: (id: string, domain: string) =>
    send<IdentityProviderResponseDto>(
      'POST',
      `/tenant-auth/v1/identity-providers/${id}/email-domains/${encodeURIComponent(domain)}/verify`,
    ),

  retention: () => api<RetentionPolicy>('/audit/v1/retention'),
  updateRetention: (body: Pick<RetentionPolicy, 'days' | 'captureContent'>) =>
    send<RetentionPolicy>('PUT', '/audit/v1/retention', body),
};
