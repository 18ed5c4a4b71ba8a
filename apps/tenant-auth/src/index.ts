export * from './bootstrap/bootstrap-default-tenant';
export * from './bootstrap/bootstrap.service';
export * from './config/tenant-auth.env';
export * from './database/data-source';
export * from './database/tokens';
export * from './keys/signing-keys.service';
export * from './tenant-auth.module';
// The response shapes the console's typed API client is checked against (issue 16).
export type { UserResponseDto } from './users/dto/user-response.dto';
export type { GroupMemberResponseDto, GroupResponseDto } from './groups/dto/group-response.dto';
export type { RoleResponseDto } from './roles/dto/role-response.dto';
export type { IdentityProviderResponseDto } from './identity-providers/dto/identity-provider-response.dto';
export type { ClientWithSecretResponseDto } from './clients/dto/client-response.dto';
export * from './openapi/response-schemas';
