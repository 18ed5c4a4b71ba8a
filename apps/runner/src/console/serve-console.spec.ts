import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Fastify from 'fastify';

import { serveConsole } from './serve-console';

describe(serveConsole.name, () => {
  const root = mkdtempSync(join(tmpdir(), 'console-'));
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>console</title>');

  async function get(url: string) {
    const app = Fastify();
    serveConsole(app, root);
    try {
      return await app.inject({ method: 'GET', url });
    } finally {
      await app.close();
    }
  }

  it('should answer the single-page application for its own routes', async () => {
    const sut = await get('/agents/123');

    expect(sut.statusCode).toBe(200);
    expect(sut.headers['content-type']).toMatch(/text\/html/);
  });

  it('should answer 404, never the page, for a well-known URI nobody serves (D43)', async () => {
    const sut = await get('/.well-known/oauth-authorization-server/elsewhere');

    expect(sut.statusCode).toBe(404);
    expect(sut.headers['content-type'] ?? '').not.toMatch(/html/);
  });
});
