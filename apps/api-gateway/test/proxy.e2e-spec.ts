import { createHash } from 'node:crypto';
import { AddressInfo } from 'node:net';

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadEnv } from '@agp/config';
import { request } from 'undici';

import { GatewayEnv } from '../src/config/gateway.env';
import { createGatewayApp } from '../src/gateway-app';
import { startUpstream } from './upstream-server';

const MB = 1024 * 1024;

describe('gateway proxy', () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let sut: NestFastifyApplication;
  let base: string;

  beforeAll(async () => {
    upstream = await startUpstream();
    const env = loadEnv(GatewayEnv, {
      LOG_LEVEL: 'silent',
      AUDIT_URL: upstream.url,
      RELAY_URL: upstream.url,
      TENANT_AUTH_URL: upstream.url,
      UPSTREAM_TIMEOUT_MS: '500',
    });
    sut = await createGatewayApp(env, { verifyTokens: false });
    await sut.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(sut.getHttpServer().address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await sut.close();
    await upstream.server.close();
  });

  it('should keep the status, headers and path when the upstream answers', async () => {
    const response = await request(`${base}/audit/v1/echo?x=1&y=%20`, {
      headers: { 'x-correlation-id': 'corr-123', 'x-custom': 'kept' },
    });
    const body = (await response.body.json()) as { url: string; headers: Record<string, string> };
    expect(response.statusCode).toBe(207);
    expect(response.headers['x-upstream']).toBe('audit');
    expect(response.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(response.headers['x-correlation-id']).toBe('corr-123');
    expect(body.url).toBe('/audit/v1/echo?x=1&y=%20');
    expect(body.headers['x-custom']).toBe('kept');
    expect(body.headers['x-correlation-id']).toBe('corr-123');
    expect(body.headers['x-forwarded-for']).toBe('127.0.0.1');
  });

  it('should name the address it saw in X-Forwarded-For when the client sent one of its own', async () => {
    const response = await request(`${base}/audit/v1/echo`, {
      headers: { 'x-forwarded-for': '6.6.6.6' },
    });
    const body = (await response.body.json()) as { headers: Record<string, string> };
    expect(body.headers['x-forwarded-for']).toBe('127.0.0.1');
  });

  it('should stream a multi-megabyte request body to the upstream unchanged', async () => {
    const payload = Buffer.alloc(12 * MB);
    for (let i = 0; i < payload.length; i += 1) {
      payload[i] = (i * 31) % 251;
    }
    const response = await request(`${base}/relay/v1/digest`, {
      method: 'POST',
      body: payload,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(response.statusCode).toBe(200);
    expect(await response.body.json()).toEqual({
      bytes: payload.length,
      sha256: createHash('sha256').update(payload).digest('hex'),
    });
  });

  it('should forward a small JSON body on a traffic path byte for byte, with its type and length', async () => {
    // Not re-serialised: spacing and key order as the client sent them.
    const payload = Buffer.from(
      '{ "jsonrpc":"2.0", "id": 7,"method":"tools/call", "params":{"b":1,"a":"é"} }',
    );
    const response = await request(`${base}/relay/mcp/digest`, {
      method: 'POST',
      body: payload,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(200);
    expect(await response.body.json()).toEqual({
      bytes: payload.length,
      sha256: createHash('sha256').update(payload).digest('hex'),
      contentType: 'application/json',
      contentLength: String(payload.length),
    });
  });

  it('should take OTLP/JSON exports up to 4 MiB on the telemetry ingest paths and refuse larger JSON elsewhere (D54)', async () => {
    const payload = Buffer.from(JSON.stringify({ resourceSpans: [], padding: 'x'.repeat(2 * MB) }));
    const post = (path: string, body: Buffer) =>
      request(`${base}${path}`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json' },
      });

    const ingest = await post('/audit/v1/telemetry/v1/digest', payload);
    const elsewhere = await post('/audit/v1/digest', payload);
    const tooLarge = await post('/audit/v1/telemetry/v1/digest', Buffer.alloc(4 * MB + 1, 0x20));

    expect(ingest.statusCode).toBe(200);
    expect(((await ingest.body.json()) as { bytes: number }).bytes).toBe(payload.length);
    expect(elsewhere.statusCode).toBe(413);
    expect(tooLarge.statusCode).toBe(413);
    await Promise.all([elsewhere.body.dump(), tooLarge.body.dump()]);
  });

  it('should stream a multi-megabyte response body back unchanged', async () => {
    const size = 20 * MB + 123;
    const response = await request(`${base}/relay/v1/large?bytes=${size}`);
    let received = 0;
    for await (const chunk of response.body) {
      received += (chunk as Buffer).length;
    }
    expect(response.statusCode).toBe(200);
    expect(received).toBe(size);
  });

  it('should answer 504 problem+json when the upstream is too slow', async () => {
    const response = await request(`${base}/tenant-auth/v1/slow`);
    const body = (await response.body.json()) as { status: number; type: string };
    expect(response.statusCode).toBe(504);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(body).toMatchObject({ status: 504, type: 'urn:agp:problem:gateway-timeout' });
  });

  it('should cancel the upstream call when the client goes away while it is held', async () => {
    const cancelled = new AbortController();
    const call = request(`${base}/relay/mcp/hold`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
      signal: cancelled.signal,
    }).catch(() => 'gone');
    await new Promise((resolve) => setTimeout(resolve, 200));

    cancelled.abort();

    expect(await call).toBe('gone');
    await expect(upstream.holdAbandoned).resolves.toBeUndefined();
  });

  it('should answer 404 problem+json when the path belongs to no service', async () => {
    const response = await request(`${base}/billing/v1/invoices`);
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toContain('application/problem+json');
    await response.body.dump();
  });
});

describe('gateway proxy with the upstream down', () => {
  it('should answer 502 problem+json when the service is unreachable', async () => {
    const env = loadEnv(GatewayEnv, { LOG_LEVEL: 'silent', AUDIT_URL: 'http://127.0.0.1:9' });
    const sut = await createGatewayApp(env, { verifyTokens: false });
    await sut.init();
    const response = await sut.getHttpAdapter().getInstance().inject({ url: '/audit/v1/events' });
    await sut.close();
    expect(response.statusCode).toBe(502);
    expect(response.json()).toMatchObject({ status: 502, type: 'urn:agp:problem:bad-gateway' });
    expect(response.json().correlationId).toEqual(expect.any(String));
  });
});
