import { BootstrapResult } from '../src';
import {
  TenantAuthHarness,
  bootstrapTenant,
  passwordToken,
  startTenantAuth,
} from './tenant-auth-harness';

describe('smoke', () => {
  let harness: TenantAuthHarness;
  let admin: BootstrapResult;

  beforeAll(async () => {
    harness = await startTenantAuth();
    admin = await bootstrapTenant(harness, 'acme');
  });

  afterAll(async () => {
    await harness.close();
  });

  it('should list permissions when the admin token is used', async () => {
    const token = await passwordToken(harness, admin);
    const response = await harness.app.inject({
      method: 'GET',
      url: '/tenant-auth/v1/permissions',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toContainEqual({ entity: 'USERS', permission: 'READ' });
  });
});
