import type { IdentityProviderType } from '@agp/contracts';

import type { RetentionPolicy } from './contracts/audit';
import type {
  GroupMemberResponseDto,
  GroupResponseDto,
  IdentityProviderResponseDto,
  RoleResponseDto,
  UserResponseDto,
} from './contracts/tenant-auth';
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

/** What the console changes of a provider (its alias and type are fixed once created). */
export type IdentityProviderChanges = Pick<
  NewIdentityProvider,
  'displayName' | 'groupMappings' | 'emailDomains' | 'enabled'
>;

/** Administration (tenant-auth's users, groups, roles, providers; the audit's retention). */
export const admin = {
  users: () => api<Page<UserResponseDto>>(`/tenant-auth/v1/users${LIST}`),
  createUser: (body: {
    email: string;
    displayName: string;
    password?: string;
    roleIds: string[];
  }) => send<UserResponseDto>('POST', '/tenant-auth/v1/users', body),
  updateUser: (
    id: string,
    changes: {
      displayName: string;
      status: UserResponseDto['status'];
      roleIds: string[];
      password?: string;
    },
  ) => send<UserResponseDto>('PATCH', `/tenant-auth/v1/users/${id}`, changes),
  deleteUser: (id: string) => remove(`/tenant-auth/v1/users/${id}`),

  groups: () => api<Page<GroupResponseDto>>(`/tenant-auth/v1/groups${LIST}`),
  createGroup: (body: { name: string; roleIds: string[] }) =>
    send<GroupResponseDto>('POST', '/tenant-auth/v1/groups', body),
  updateGroup: (id: string, changes: { name: string; roleIds: string[] }) =>
    send<GroupResponseDto>('PATCH', `/tenant-auth/v1/groups/${id}`, changes),
  deleteGroup: (id: string) => remove(`/tenant-auth/v1/groups/${id}`),
  addMember: (groupId: string, userId: string) =>
    send<GroupMemberResponseDto>('POST', `/tenant-auth/v1/groups/${groupId}/members`, { userId }),
  removeMember: (groupId: string, userId: string) =>
    remove(`/tenant-auth/v1/groups/${groupId}/members/${userId}`),
  members: (groupId: string) =>
    api<Page<GroupMemberResponseDto>>(`/tenant-auth/v1/groups/${groupId}/members${LIST}`),

  roles: () => api<Page<RoleResponseDto>>(`/tenant-auth/v1/roles${LIST}`),
  createRole: (body: { name: string; permissions: PermissionEntry[] }) =>
    send<RoleResponseDto>('POST', '/tenant-auth/v1/roles', body),
  updateRole: (id: string, changes: { name: string; permissions: PermissionEntry[] }) =>
    send<RoleResponseDto>('PATCH', `/tenant-auth/v1/roles/${id}`, changes),
  deleteRole: (id: string) => remove(`/tenant-auth/v1/roles/${id}`),

  identityProviders: () => api<IdentityProviderResponseDto[]>('/tenant-auth/v1/identity-providers'),
  createIdentityProvider: (body: NewIdentityProvider) =>
    send<IdentityProviderResponseDto>('POST', '/tenant-auth/v1/identity-providers', body),
  updateIdentityProvider: (id: string, changes: IdentityProviderChanges) =>
    send<IdentityProviderResponseDto>('PATCH', `/tenant-auth/v1/identity-providers/${id}`, changes),
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
