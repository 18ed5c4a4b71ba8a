import { randomUUID } from 'node:crypto';

import { Database } from '@agp/database';

import { openTestSchema } from '../../test/schema';
import { GroupMember } from '../groups/entities/group-member.entity';
import { Group } from '../groups/entities/group.entity';
import { Role } from '../roles/entities/role.entity';
import { Tenant } from '../tenants/entities/tenant.entity';
import { User } from './entities/user.entity';
import { UsersRepository } from './users.repository';

describe(UsersRepository.name, () => {
  let schema: { database: Database; drop(): Promise<void> };
  const sut = new UsersRepository();
  const [tenantA, tenantB] = [randomUUID(), randomUUID()];
  const userA = randomUUID();
  const userB = randomUUID();

  beforeAll(async () => {
    schema = await openTestSchema('ta_users_repo');
    await schema.database.asSystem(async (tx) => {
      for (const [id, slug] of [
        [tenantA, 'a'],
        [tenantB, 'b'],
      ] as const) {
        await tx
          .getRepository(Tenant)
          .insert({ id, slug: `repo-${slug}`, name: slug, status: 'ACTIVE', isOperator: false });
      }
      const direct = {
        id: randomUUID(),
        tenantId: tenantA,
        name: 'direct',
        description: '',
        permissions: ['USERS:READ'],
      };
      const viaGroup = {
        id: randomUUID(),
        tenantId: tenantA,
        name: 'via-group',
        description: '',
        permissions: ['AUDIT:WRITE', 'USERS:READ'],
      };
      await tx.getRepository(Role).insert([direct, viaGroup]);
      const base = { displayName: 'x', passwordHash: null, status: 'ACTIVE' as const };
      await tx.getRepository(User).insert([
        { ...base, id: userA, tenantId: tenantA, email: 'a@a.example', roleIds: [direct.id] },
        { ...base, id: userB, tenantId: tenantB, email: 'b@b.example', roleIds: [] },
      ]);
      const group = {
        id: randomUUID(),
        tenantId: tenantA,
        name: 'g',
        description: '',
        roleIds: [viaGroup.id],
      };
      await tx.getRepository(Group).insert(group);
      await tx
        .getRepository(GroupMember)
        .insert({ groupId: group.id, userId: userA, tenantId: tenantA });
    });
  });

  afterAll(async () => {
    await schema.drop();
  });

  it("should not see another tenant's user even when asked with that tenant's id (row-level security)", async () => {
    const seen = await schema.database.inTenant(tenantA, (tx) => sut.findById(tx, tenantB, userB));
    expect(seen).toBeNull();
    const own = await schema.database.inTenant(tenantB, (tx) => sut.findById(tx, tenantB, userB));
    expect(own?.email).toBe('b@b.example');
  });

  it("should list only the tenant's users when another tenant has some", async () => {
    const [items, total] = await schema.database.inTenant(tenantA, (tx) =>
      sut.list(tx, tenantA, { page: 1, pageSize: 50 }),
    );
    expect([items.map((u) => u.id), total]).toEqual([[userA], 1]);
  });

  it("should union the user's own roles and its groups' roles when computing permissions", async () => {
    const permissions = await schema.database.inTenant(tenantA, (tx) =>
      sut.permissionsOf(tx, tenantA, userA),
    );
    expect(permissions).toEqual(['AUDIT:WRITE', 'USERS:READ']);
  });
});
