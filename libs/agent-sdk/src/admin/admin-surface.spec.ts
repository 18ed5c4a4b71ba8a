import { AdminRequest, AdminSurface } from './admin-surface';

function request(method: string, path: string, body = ''): AdminRequest {
  return { method, path, headers: {}, rawBody: Buffer.from(body) };
}

describe(AdminSurface.name, () => {
  it('should answer 400 when the configure body is not JSON', async () => {
    const sut = new AdminSurface();

    expect((await sut.handle(request('POST', '/configure', '{'))).status).toBe(400);
  });

  it('should list every wrong field of a configure body at once', async () => {
    const sut = new AdminSurface();

    const answer = await sut.handle(
      request('POST', '/configure', JSON.stringify({ client_secret: 7, base_url: 'ftp://x' })),
    );

    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([
      { field: 'client_secret', message: 'must be a non-empty string' },
      { field: 'base_url', message: 'must be an http or https URL' },
      { field: 'agent_id', message: 'is required' },
      { field: 'token_url', message: 'is required on the first configure' },
    ]);
    expect(sut.isConfigured).toBe(false);
  });

  it('should keep the addresses when a later configure omits them', async () => {
    const sut = new AdminSurface();
    await sut.handle(
      request(
        'POST',
        '/configure',
        JSON.stringify({
          agent_id: 'a',
          client_secret: 's',
          base_url: 'http://b/',
          token_url: 'http://t',
        }),
      ),
    );

    const answer = await sut.handle(
      request('POST', '/configure', JSON.stringify({ agentId: 'a2', clientSecret: 's2' })),
    );

    expect(answer).toEqual({ status: 200, body: { configured: true, agent_id: 'a2' } });
    expect(sut.currentConfig).toMatchObject({ baseUrl: 'http://b', tokenUrl: 'http://t' });
  });

  it('should answer 405 to a known path with another method and 404 to an unknown path', async () => {
    const sut = new AdminSurface();

    expect((await sut.handle(request('GET', '/webhook'))).status).toBe(405);
    expect((await sut.handle(request('POST', '/status'))).status).toBe(405);
    expect((await sut.handle(request('GET', '/elsewhere'))).status).toBe(404);
  });
});
