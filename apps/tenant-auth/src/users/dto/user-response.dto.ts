import { User, UserStatus } from '../user.types';

/** Never carries the password or its hash. */
export class UserResponseDto {
  id: string;
  tenantId: string;
  email: string;
  displayName: string;
  status: UserStatus;
  hasPassword: boolean;
  roleIds: string[];
  createdAt: string;
  updatedAt: string;

  static of(user: User): UserResponseDto {
    return {
      id: user.id,
      tenantId: user.tenantId,
      email: user.email,
      displayName: user.displayName,
      status: user.status,
      hasPassword: user.passwordHash !== null,
      roleIds: user.roleIds,
      createdAt: user.createdAt.toISOString(),
      updatedAt: user.updatedAt.toISOString(),
    };
  }
}
