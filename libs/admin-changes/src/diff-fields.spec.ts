import { diffFields } from './diff-fields';
import { REDACTED } from './redact';

describe(diffFields.name, () => {
  it('should list every field of a created resource with its value after when there is no before', () => {
    const sut = diffFields(undefined, { name: 'ops', roleIds: ['r1'], description: null });

    expect(sut).toEqual({
      fields: ['name', 'roleIds', 'description'],
      changes: { name: { after: 'ops' }, roleIds: { after: ['r1'] }, description: { after: null } },
    });
  });

  it('should list only the fields whose values differ when a resource is changed', () => {
    const sut = diffFields(
      { name: 'ops', settings: { a: 1, b: 2 }, status: 'ACTIVE' },
      { name: 'ops', settings: { b: 2, a: 1 }, status: 'DISABLED' },
    );

    expect(sut).toEqual({
      fields: ['status'],
      changes: { status: { before: 'ACTIVE', after: 'DISABLED' } },
    });
  });

  it('should record a changed secret as redacted on both sides when its name says secret', () => {
    const sut = diffFields(
      { clientSecret: 'old-value', password: 'p1', apiKey: 'k1', privateKey: 'pk' },
      { clientSecret: 'new-value', password: 'p2', apiKey: 'k2', privateKey: 'pk2' },
    );

    expect(sut.fields).toEqual(['clientSecret', 'password', 'apiKey', 'privateKey']);
    for (const change of Object.values(sut.changes)) {
      expect(change).toEqual({ before: REDACTED, after: REDACTED });
    }
    expect(JSON.stringify(sut)).not.toMatch(/old-value|new-value|p1|p2|k1|k2/);
  });

  it('should redact nested secrets and caller-named secrets when they sit inside objects', () => {
    const sut = diffFields(
      { config: { url: 'https://a', headers: { Authorization: 'Bearer abc', 'X-Api-Key': 'zz' } } },
      {
        config: { url: 'https://b', headers: { Authorization: 'Bearer def', Accept: 'json' } },
        dsn: 'postgres://u:pw@h/db',
      },
      { secrets: ['dsn'] },
    );

    expect(sut.changes.config).toEqual({
      before: { url: 'https://a', headers: { Authorization: REDACTED, 'X-Api-Key': REDACTED } },
      after: { url: 'https://b', headers: { Authorization: REDACTED, Accept: 'json' } },
    });
    expect(sut.changes.dsn).toEqual({ after: REDACTED });
  });

  it('should show null for a secret when none was set, and keep counts named after tokens', () => {
    const sut = diffFields(
      { webhookSecret: null, maxTokens: 10 },
      { webhookSecret: 's3', maxTokens: 20 },
    );

    expect(sut.changes).toEqual({
      webhookSecret: { before: null, after: REDACTED },
      maxTokens: { before: 10, after: 20 },
    });
  });

  it('should record bytes as redacted and dates as ISO strings when the entity holds them', () => {
    const at = new Date('2026-12-01T10:00:00.000Z');
    const sut = diffFields(undefined, { sealed: Buffer.from('key material'), expiresAt: at });

    expect(sut.changes).toEqual({
      sealed: { after: REDACTED },
      expiresAt: { after: '2026-12-01T10:00:00.000Z' },
    });
  });

  it('should skip timestamps and ignored fields when they change', () => {
    const sut = diffFields(
      { name: 'a', updatedAt: '1', revision: 1 },
      { name: 'a', updatedAt: '2', revision: 2 },
      { ignore: ['updatedAt', 'revision'] },
    );

    expect(sut).toEqual({ fields: [], changes: {} });
  });

  it('should record a value by digest and length when it is too long to keep', () => {
    const source = 'package x\n'.repeat(500);
    const sut = diffFields({ source: 'short' }, { source });

    expect(sut.changes.source).toEqual({
      before: 'short',
      after: {
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        length: JSON.stringify(source).length,
      },
    });
  });

  it('should list a write-only secret that was replaced when it reads back masked on both sides', () => {
    const sut = diffFields(
      { name: 'tools', credential: '********' },
      { name: 'tools', credential: '********' },
      { changed: ['credential'] },
    );

    expect(sut).toEqual({
      fields: ['credential'],
      changes: { credential: { before: REDACTED, after: REDACTED } },
    });
  });
});
