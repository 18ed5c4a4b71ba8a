import { randomUUID } from 'node:crypto';

import fc from 'fast-check';
import { PERMISSION_ENTITIES } from '@agp/contracts';

import { CallerKind } from './fuzz-case';
import { FuzzOperation, collectionOf, parametersOf } from './fuzz-operations';
import { BootstrapService, FuzzPlatform } from './fuzz-platform';
import { Schemas, validValue } from './schema-arbitrary';

type Json = Record<string, unknown>;
export type Tenant = 'a' | 'b';

/** A resource created through the API, with the parent identifiers its path needed. */
export interface SeededResource {
  id: string;
  parents: Record<string, string>;
}

/**
 * The callers and resources of a fuzz run, all set up through the real API (issue 18 § 3): an
 * operator tenant (the bootstrap of D11, as the runner's first start does), which creates tenants
 * A and B; in A, its administrator (`right`) and a user whose only role reads (`too-few-permissions`);
 * B's administrator (`other-tenant`). Resources of both tenants are created by POSTing documented
 * bodies to every collection, so path identifiers can name a resource of A, or one of B that A
 * must never reach.
 */
export class FuzzWorld {
  /** Collection template → resources of each tenant. */
  readonly resources: Record<Tenant, Map<string, SeededResource[]>> = {
    a: new Map(),
    b: new Map(),
  };
  /** Every identifier seen in an answer to a tenant's callers: what the other tenant must never read. */
  readonly identifiers: Record<Tenant, Set<string>> = { a: new Set(), b: new Set() };
  readonly grantedToReader = new Set<string>();

  private constructor(
    readonly platform: FuzzPlatform,
    private readonly tokens: Record<Exclude<CallerKind, 'no-token'>, string>,
  ) {}

  static async create(platform: FuzzPlatform): Promise<FuzzWorld> {
    const operator = await platform.app
      .get(BootstrapService)
      .bootstrap({ slug: 'fz-operator', email: 'admin@fz-operator.example' });
    const operatorToken = await passwordToken(
      platform,
      'fz-operator',
      operator.email,
      operator.password,
    );
    const admins: Record<Tenant, { token: string; tenantId: string }> = {} as never;
    for (const tenant of ['a', 'b'] as const) {
      const slug = `fz-tenant-${tenant}`;
      const password = `fuzz-${randomUUID()}`;
      const created = await call(platform, operatorToken, 'POST', '/tenant-auth/v1/tenants', {
        slug,
        name: `Fuzz tenant ${tenant.toUpperCase()}`,
        adminEmail: `admin@${slug}.example`,
        adminPassword: password,
      });
      admins[tenant] = {
        token: await passwordToken(platform, slug, `admin@${slug}.example`, password),
        tenantId: String(created.id),
      };
    }
    // Too few permissions: READ on every entity, nothing more (D10).
    const role = await call(platform, admins.a.token, 'POST', '/tenant-auth/v1/roles', {
      name: 'fuzz-reader',
      permissions: PERMISSION_ENTITIES.map((entity) => ({ entity, permission: 'READ' })),
    });
    const readerPassword = `fuzz-${randomUUID()}`;
    await call(platform, admins.a.token, 'POST', '/tenant-auth/v1/users', {
      email: 'reader@fz-tenant-a.example',
      displayName: 'Fuzz reader',
      password: readerPassword,
      roleIds: [role.id],
    });
    const world = new FuzzWorld(platform, {
      right: admins.a.token,
      'other-tenant': admins.b.token,
      'too-few-permissions': await passwordToken(
        platform,
        'fz-tenant-a',
        'reader@fz-tenant-a.example',
        readerPassword,
      ),
    });
    for (const entity of PERMISSION_ENTITIES) {
      world.grantedToReader.add(`${entity}:READ`);
    }
    world.identifiers.a.add(admins.a.tenantId);
    world.identifiers.b.add(admins.b.tenantId);
    world.resources.b.set('/tenant-auth/v1/tenants', [{ id: admins.b.tenantId, parents: {} }]);
    return world;
  }

  tokenOf(caller: CallerKind): string | undefined {
    return caller === 'no-token' ? undefined : this.tokens[caller];
  }

  /** The tenant a caller belongs to (none for no token). */
  static tenantOf(caller: CallerKind): Tenant | undefined {
    return caller === 'no-token' ? undefined : caller === 'other-tenant' ? 'b' : 'a';
  }

  /**
   * Remembers a resource a tenant's caller created: what the other tenant must never read, and
   * what path parameters of the tenant can name (up to 50 per collection).
   */
  noteCreated(
    tenant: Tenant,
    collection: string,
    id: string,
    parents: Record<string, string>,
  ): void {
    this.identifiers[tenant].add(id.toLowerCase());
    const pool = this.resources[tenant].get(collection) ?? [];
    if (pool.length < 50) {
      this.resources[tenant].set(collection, [...pool, { id, parents }]);
    }
  }

  /**
   * Creates resources in both tenants by POSTing documented bodies to each collection, parents
   * first (three rounds, so nested collections find their parents). Bodies that a custom rule
   * refuses are simply retried with the next sample.
   */
  async seed(operations: FuzzOperation[], schemas: Schemas, seed: number): Promise<number> {
    const creates = operations.filter(
      (o) => o.method === 'POST' && o.body && !o.isTraffic && !o.isPublic && !o.path.endsWith('}'),
    );
    let requests = 0;
    for (let round = 0; round < 3; round += 1) {
      for (const operation of creates) {
        for (const tenant of ['a', 'b'] as const) {
          const pool = this.resources[tenant];
          if ((pool.get(operation.path)?.length ?? 0) >= 2) {
            continue;
          }
          const parents = this.parentsFor(tenant, operation.path);
          if (!parents) {
            continue;
          }
          const samples = fc.sample(validValue(operation.body!.schema, schemas), {
            seed: seed + round * 7919 + requests,
            numRuns: 6,
          });
          for (const body of samples) {
            requests += 1;
            const url = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => parents[name]);
            const answer = await this.platform.send({
              method: 'POST',
              url,
              headers: {
                authorization: `Bearer ${this.tokens[tenant === 'a' ? 'right' : 'other-tenant']}`,
                'content-type': 'application/json',
              },
              payload: JSON.stringify(body),
            });
            if (answer.status >= 200 && answer.status < 300) {
              const id = (JSON.parse(answer.body || '{}') as Json).id;
              if (typeof id === 'string') {
                this.noteCreated(tenant, operation.path, id, parents);
                break;
              }
            }
          }
        }
      }
    }
    return requests;
  }

  /** Identifiers of a tenant's resources for each parent parameter of a collection, if it has them all. */
  private parentsFor(tenant: Tenant, path: string): Record<string, string> | undefined {
    const parents: Record<string, string> = {};
    for (const name of parametersOf(path)) {
      const found = this.resources[tenant].get(collectionOf(path, name))?.[0];
      if (!found) {
        return undefined;
      }
      Object.assign(parents, found.parents, { [name]: found.id });
    }
    return parents;
  }

  /** A resource of a tenant that a path parameter can name, by index (wrapping), if any. */
  pick(tenant: Tenant, path: string, parameter: string, index: number): SeededResource | undefined {
    const pool = this.resources[tenant].get(collectionOf(path, parameter)) ?? [];
    return pool.length ? pool[index % pool.length] : undefined;
  }

  /** Collections with at least one resource, per tenant: what the figures report. */
  seededCollections(): Record<Tenant, number> {
    return { a: this.resources.a.size, b: this.resources.b.size };
  }
}

async function call(
  platform: FuzzPlatform,
  token: string,
  method: string,
  url: string,
  body: unknown,
): Promise<Json> {
  const answer = await platform.send({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  if (answer.status >= 300) {
    throw new Error(`${method} ${url}: ${answer.status} ${answer.body}`);
  }
  return JSON.parse(answer.body) as Json;
}

async function passwordToken(
  platform: FuzzPlatform,
  tenant: string,
  username: string,
  password: string,
): Promise<string> {
  const answer = await platform.send({
    method: 'POST',
    url: '/tenant-auth/v1/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ grant_type: 'password', tenant, username, password }).toString(),
  });
  if (answer.status !== 200) {
    throw new Error(`token for ${username}: ${answer.status} ${answer.body}`);
  }
  return String((JSON.parse(answer.body) as Json).access_token);
}
