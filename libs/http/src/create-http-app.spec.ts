import { Body, Controller, Get, Module, Post } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AddressInfo } from 'node:net';
import { Type } from 'class-transformer';
import { IsInt, IsString, Max, MaxLength, ValidateNested } from 'class-validator';

import { createHttpApp } from './create-http-app';
import { MAX_BODY_DEPTH } from './input-guard';

class OwnerDto {
  @IsString()
  name: string;
}

class CreateThingDto {
  @IsString()
  @MaxLength(5)
  name: string;

  @IsInt()
  @Max(10)
  count: number;

  @ValidateNested()
  @Type(() => OwnerDto)
  owner: OwnerDto;
}

@Controller('things')
class ThingsController {
  @Post()
  create(@Body() body: CreateThingDto): CreateThingDto {
    return body;
  }

  @Get(':thingId')
  get(): string {
    return 'thing';
  }

  @Get('boom')
  boom(): never {
    throw new Error('select * from secrets where password = 42');
  }
}

@Module({ controllers: [ThingsController] })
class ThingsModule {}

describe(createHttpApp.name, () => {
  let sut: NestFastifyApplication;

  beforeAll(async () => {
    sut = await createHttpApp({
      service: 'http-spec',
      logLevel: 'silent',
      imports: [ThingsModule],
    });
    await sut.init();
    await sut.getHttpAdapter().getInstance().ready();
  });

  afterAll(async () => {
    await sut.close();
  });

  const post = (payload: string, contentType = 'application/json') =>
    sut.inject({
      method: 'POST',
      url: '/things',
      payload,
      headers: { 'content-type': contentType },
    });

  it('should list every bad field, nested ones and unknown properties when the body is invalid', async () => {
    const response = await post(
      JSON.stringify({ name: 'too long', count: 11, owner: { name: 3 }, extra: true }),
    );
    const body = response.json<{ errors: Array<{ field: string }> }>();
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(body).toMatchObject({
      type: 'urn:agp:problem:validation-error',
      status: 400,
      instance: '/things',
    });
    expect(body.errors.map((e) => e.field).sort()).toEqual([
      'count',
      'extra',
      'name',
      'owner.name',
    ]);
    expect(response.json().correlationId).toBe(response.headers['x-correlation-id']);
  });

  it('should accept a valid body and keep the caller correlation id', async () => {
    const response = await sut.inject({
      method: 'POST',
      url: '/things',
      payload: { name: 'ok', count: 2, owner: { name: 'a' } },
      headers: { 'x-correlation-id': 'abc-123' },
    });
    expect(response.statusCode).toBe(201);
    expect(response.headers['x-correlation-id']).toBe('abc-123');
  });

  it('should replace a correlation id that is not a sane token', async () => {
    const response = await sut.inject({
      url: '/health/live',
      headers: { 'x-correlation-id': 'a b\u00e9' },
    });
    expect(response.headers['x-correlation-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('should answer 413 when the body is over 1 MiB', async () => {
    const response = await post(JSON.stringify({ name: 'x'.repeat(1024 * 1024) }));
    expect(response.statusCode).toBe(413);
    expect(response.json().type).toBe('urn:agp:problem:payload-too-large');
  });

  it('should answer 415 when the content type is not JSON', async () => {
    const response = await post('name=x', 'text/plain');
    expect(response.statusCode).toBe(415);
    expect(response.json().status).toBe(415);
  });

  it('should answer 400 when the JSON does not parse', async () => {
    expect((await post('{bad')).statusCode).toBe(400);
  });

  it('should answer 400 problem+json when the body nests deeper than the limit (found by the fuzz suite)', async () => {
    const deep = (levels: number): string => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

    const response = await post(`{"owner":${deep(50_000)}}`);
    const within = await post(
      `{"name":"ok","count":1,"owner":{"name":"a","x":${deep(MAX_BODY_DEPTH - 3)}}}`,
    );

    expect([response.statusCode, response.headers['content-type']]).toEqual([
      400,
      expect.stringContaining('application/problem+json'),
    ]);
    expect(response.json().errors).toEqual([
      { field: expect.stringMatching(/^owner\.a/), message: expect.stringContaining('deeper') },
    ]);
    expect(response.json().correlationId).toBe(response.headers['x-correlation-id']);
    expect(within.statusCode).toBe(400);
    expect(within.json().type).toBe('urn:agp:problem:validation-error');
  });

  it('should answer 400 naming the field when a string holds a lone surrogate (found by the fuzz suite: isEmail threw, a 500)', async () => {
    const response = await post('{"name":"ok","count":1,"owner":{"name":"\\udfff"}}');

    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([
      { field: 'owner.name', message: expect.stringContaining('surrogate') },
    ]);
  });

  it.each(['/things/%00', '/things/x?name=%00'])(
    'should answer 400 when a path parameter or query value holds NUL, as %s (found by the fuzz suite: PostgreSQL refused it, a 500)',
    async (url) => {
      const response = await sut.inject({ url });

      expect(response.statusCode).toBe(400);
      expect(response.json().errors[0].message).toContain('NUL');
    },
  );

  it.each([
    ['a parameter over 100 characters', `/things/${'a'.repeat(300)}`, 414],
    ['a bad percent-encoding', '/things/%ED%A0%80', 400],
  ])(
    'should answer problem+json with a correlation id when the URL has %s (found by the fuzz suite)',
    async (_, url, status) => {
      const response = await sut.inject({ url });

      expect(response.statusCode).toBe(status);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.json()).toMatchObject({ status, instance: url });
      expect(response.json().correlationId).toBe(response.headers['x-correlation-id']);
    },
  );

  it('should answer 404 problem+json when no route matches', async () => {
    const response = await sut.inject({ url: '/nothing/here' });
    expect(response.statusCode).toBe(404);
    expect(response.json().type).toBe('urn:agp:problem:not-found');
  });

  it('should hide internals behind a 500 when a handler fails unexpectedly', async () => {
    const response = await sut.inject({ url: '/things/boom' });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('secrets');
    expect(response.body).not.toContain('at ');
    expect(response.json().detail).toContain(response.headers['x-correlation-id']);
  });

  it.each([
    [0, '127.0.0.9'],
    [1, '10.0.0.2'],
    [2, '10.0.0.1'],
  ])(
    'should take the client address %i hop(s) back when that many proxies are trusted',
    async (hops, expected) => {
      const app = await createHttpApp({
        service: 'http-spec',
        logLevel: 'silent',
        imports: [],
        trustProxyHops: hops,
        configureFastify: (adapter) => {
          adapter.getInstance().get('/ip', (request, reply) => {
            void reply.send({ ip: request.ip });
          });
        },
      });
      await app.init();
      await app.getHttpAdapter().getInstance().ready();
      const response = await app.inject({
        url: '/ip',
        remoteAddress: '127.0.0.9',
        headers: { 'x-forwarded-for': '6.6.6.6, 10.0.0.1, 10.0.0.2' },
      });
      await app.close();
      expect(response.json()).toEqual({ ip: expected });
    },
  );

  it('should close within its grace while a request is still waiting on an answer that never comes (F40)', async () => {
    let handling = false;
    const app = await createHttpApp({
      service: 'http-spec',
      logLevel: 'silent',
      imports: [],
      shutdownGraceMs: 200,
      configureFastify: (adapter) => {
        adapter.getInstance().get('/never', () => {
          handling = true;
          return new Promise(() => undefined);
        });
      },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.getHttpServer().address() as AddressInfo;
    const waiting = fetch(`http://127.0.0.1:${port}/never`).then(
      (response) => `answered ${response.status}`,
      () => 'dropped',
    );
    await eventually(async () => expect(handling).toBe(true));

    await app.close();

    await expect(waiting).resolves.toBe('dropped');
  });
});

async function eventually(
  check: () => Promise<void>,
  deadline = Date.now() + 5_000,
): Promise<void> {
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) {
        throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}
