import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { recordAdminChange } from '@agp/admin-changes';
import { RequestContext, actorOf, eventContext } from '@agp/auth';
import { Database, isUniqueViolation, Tx } from '@agp/database';
import { EventOutbox } from '@agp/messaging';
import { Page, pageOf } from '@agp/http';

import { hashPassword } from '../common/credentials';
import { IdentityException, IdentityErrorCode } from '../common/identity.exception';
import { TENANT_AUTH_DATABASE, TENANT_AUTH_OUTBOX } from '../database/tokens';
import { RevocationsService } from '../revocations/revocations.service';
import { assertAssignableRoles } from '../roles/role-grants';
import { RolesRepository } from '../roles/roles.repository';
import { CreateUserDto } from './dto/create-user.dto';
import { ListUsersQueryDto } from './dto/list-users-query.dto';
import { UpdateUserDto } from './dto/update-user.dto';
import { UserResponseDto } from './dto/user-response.dto';
import { User } from './user.types';
import { statusChange, userLifecycleData, userTarget } from './user-lifecycle';
import { UsersRepository } from './users.repository';

@Injectable()
export class UsersService {
  constructor(
    @Inject(TENANT_AUTH_DATABASE) private readonly database: Database,
    @Inject(TENANT_AUTH_OUTBOX) private readonly outbox: EventOutbox,
    private readonly users: UsersRepository,
    private readonly roles: RolesRepository,
    private readonly revocations: RevocationsService,
  ) {}

  list({ principal }: RequestContext, query: ListUsersQueryDto): Promise<Page<UserResponseDto>> {
    return this.database.inTenant(principal.tenantId, async (tx) => {
      const [items, total] = await this.users.list(tx, principal.tenantId, query);
      return pageOf(items.map(UserResponseDto.of), total, query);
    });
  }

  get({ principal }: RequestContext, id: string): Promise<UserResponseDto> {
    return this.database.inTenant(principal.tenantId, async (tx) =>
      UserResponseDto.of(await this.found(tx, principal.tenantId, id)),
    );
  }

  async create(caller: RequestContext, dto: CreateUserDto): Promise<UserResponseDto> {
    const { principal } = caller;
    const passwordHash = dto.password ? await hashPassword(dto.password) : null;
    return this.unique(() =>
      this.database.inTenant(principal.tenantId, async (tx) => {
        await assertAssignableRoles(this.roles, tx, principal, dto.roleIds ?? []);
        const user = {
          id: randomUUID(),
          tenantId: principal.tenantId,
          email: dto.email.toLowerCase(),
          displayName: dto.displayName,
          passwordHash,
          status: dto.status ?? 'ACTIVE',
          roleIds: [...new Set(dto.roleIds ?? [])],
        };
        const saved = await this.users.save(tx, user);
        await this.outbox.add(
          tx,
          'USER_LIFECYCLE',
          eventContext(caller),
          userLifecycleData(saved, 'CREATED', actorOf(caller)),
        );
        await recordAdminChange(this.outbox, tx, caller, 'CREATED', {
          target: userTarget(saved),
          after: saved,
        });
        return UserResponseDto.of(saved);
      }),
    );
  }

  async update(caller: RequestContext, id: string, dto: UpdateUserDto): Promise<UserResponseDto> {
    const { principal } = caller;
    const passwordHash = dto.password ? await hashPassword(dto.password) : undefined;
    let afterCommit: (() => Promise<void>) | undefined;
    const result = await this.database.inTenant(principal.tenantId, async (tx) => {
      const user = await this.found(tx, principal.tenantId, id);
      const before = { ...user };
      if (dto.roleIds) {
        await assertAssignableRoles(this.roles, tx, principal, dto.roleIds);
        user.roleIds = [...new Set(dto.roleIds)];
      }
      if (dto.status && dto.status !== user.status) {
        this.assertNotSelf(principal.subject, id);
        if (dto.status === 'DISABLED') {
          await this.revocations.revoke(tx, 'USER', id, 'DISABLED');
        } else {
          afterCommit = await this.revocations.restore(tx, 'USER', id);
        }
        user.status = dto.status;
      }
      user.displayName = dto.displayName ?? user.displayName;
      user.passwordHash = passwordHash ?? user.passwordHash;
      const saved = await this.users.save(tx, user);
      const change = statusChange(before.status, saved.status);
      await this.outbox.add(
        tx,
        'USER_LIFECYCLE',
        eventContext(caller),
        userLifecycleData(saved, change, actorOf(caller)),
      );
      await recordAdminChange(this.outbox, tx, caller, 'UPDATED', {
        target: userTarget(saved),
        before,
        after: saved,
      });
      return UserResponseDto.of(saved);
    });
    await afterCommit?.();
    return result;
  }

  async remove(caller: RequestContext, id: string): Promise<void> {
    const { principal } = caller;
    this.assertNotSelf(principal.subject, id);
    await this.database.inTenant(principal.tenantId, async (tx) => {
      const user = await this.found(tx, principal.tenantId, id);
      await this.outbox.add(
        tx,
        'USER_LIFECYCLE',
        eventContext(caller),
        userLifecycleData(user, 'DELETED', actorOf(caller)),
      );
      await recordAdminChange(this.outbox, tx, caller, 'DELETED', {
        target: userTarget(user),
        before: user,
      });
      await this.revocations.revoke(tx, 'USER', id, 'DELETED', true);
      await this.users.remove(tx, principal.tenantId, id);
    });
  }

  private assertNotSelf(subject: string, id: string): void {
    if (subject === id) {
      throw new IdentityException(
        IdentityErrorCode.InvalidState,
        'you cannot disable or delete yourself',
      );
    }
  }

  private async found(tx: Tx, tenantId: string, id: string): Promise<User> {
    const user = await this.users.findById(tx, tenantId, id);
    if (!user) {
      throw IdentityException.notFound('user', id);
    }
    return user;
  }

  private async unique<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw IdentityException.duplicate('a user with this e-mail already exists');
      }
      throw error;
    }
  }
}
