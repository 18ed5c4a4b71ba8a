import { randomUUID } from 'node:crypto';

import { Database } from '@agp/database';

import { openTestSchema } from '../../test/schema';
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
        await tx.query(
          `INSERT INTO tenant_auth.tenants (id, slug, name, status) VALUES ($1, $2, $3, 'ACTIVE')`,
          [id, `repo-${slug}`, slug],
        );
      }
      const [direct, viaGroup, group] = [randomUUID(), randomUUID(), randomUUID()];
      await tx.query(
        `INSERT INTO tenant_auth.roles (id, tenant_id, name, permissions)
         VALUES ($1, $3, 'direct', $4), ($2, $3, 'via-group', $5)`,
        [direct, viaGroup, tenantA, ['USERS:READ'], ['AUDIT:WRITE', 'USERS:READ']],
      );
      await tx.query(
        `INSERT INTO tenant_auth.users (id, tenant_id, email, display_name, status, role_ids)
         VALUES ($1, $2, 'a@a.example', 'x', 'ACTIVE', $3), ($4, $5, 'b@b.example', 'x', 'ACTIVE', '{}')`,
        [userA, tenantA, [direct], userB, tenantB],
      );
      await tx.query(
        `INSERT INTO tenant_auth.groups (id, tenant_id, name, role_ids) VALUES ($1, $2, 'g', $3)`,
        [group, tenantA, [viaGroup]],
      );
      await tx.query(
        `INSERT INTO tenant_auth.group_members (group_id, user_id, tenant_id) VALUES ($1, $2, $3)`,
        [group, userA, tenantA],
      );
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
