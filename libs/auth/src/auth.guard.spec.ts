import { randomUUID } from 'node:crypto';

import { Controller, Get } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createHttpApp } from '@agp/http';
import { TestTokenIssuer } from '@agp/testing';

import { CurrentPrincipal, RequirePermission } from './auth.decorators';
import { AuthModule } from './auth.module';
import { Principal } from './principal';
import { Public } from './public.decorator';

@Controller('audit/v1/things')
class ThingsController {
  @Get()
  @RequirePermission('AUDIT', 'READ')
  list(@CurrentPrincipal() principal: Principal): { tenantId: string } {
    return { tenantId: principal.tenantId };
  }

  @Public()
  @Get('open')
  open(): { ok: true } {
    return { ok: true };
  }
}

describe('AuthGuard', () => {
  let issuer: TestTokenIssuer;
  let sut: NestFastifyApplication;
  const tenantId = randomUUID();

  beforeAll(async () => {
    issuer = await TestTokenIssuer.create();
    sut = await createHttpApp({
      service: 'auth-spec',
      logLevel: 'silent',
      imports: [
        AuthModule.forRoot({ ...issuer.authOptions() }),
        { module: class {}, controllers: [ThingsController] },
      ],
    });
    await sut.init();
    await sut.getHttpAdapter().getInstance().ready();
  });

  afterAll(async () => {
    await sut.close();
  });

  const get = (headers: Record<string, string> = {}, url = '/audit/v1/things') =>
    sut.inject({ method: 'GET', url, headers });

  it('should answer 401 with WWW-Authenticate when no token is sent', async () => {
    const response = await get();
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    expect(response.headers['content-type']).toContain('application/problem+json');
  });

  it('should pass the principal when the token is valid and has an implying role', async () => {
    const token = await issuer.token({ tenantId, perms: ['AUDIT:WRITE'] });
    const response = await get({ authorization: `Bearer ${token}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ tenantId });
  });

  it('should answer 403 naming the role when the token lacks it', async () => {
    const token = await issuer.token({ tenantId, perms: ['TENANT:ADMIN'] });
    const response = await get({ authorization: `Bearer ${token}` });
    expect(response.statusCode).toBe(403);
    expect(response.json().detail).toContain('AUDIT:READ');
  });

  it('should answer 401 when an mcp:call token is used on an API path', async () => {
    const token = await issuer.token({
      tenantId,
      perms: ['AUDIT:READ'],
      audience: `${issuer.baseUrl}/relay`,
    });
    expect((await get({ authorization: `Bearer ${token}` })).statusCode).toBe(401);
  });

  it('should answer 401 when the token expired beyond the clock skew', async () => {
    const token = await issuer.token({ tenantId, perms: ['AUDIT:READ'], expiresInSec: -31 });
    expect((await get({ authorization: `Bearer ${token}` })).statusCode).toBe(401);
  });

  it('should let a public route through when no token is sent', async () => {
    expect((await get({}, '/audit/v1/things/open')).statusCode).toBe(200);
    expect((await get({}, '/health/live')).statusCode).toBe(200);
  });
});
