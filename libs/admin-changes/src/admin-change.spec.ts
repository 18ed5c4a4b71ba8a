import { adminChangeData } from './admin-change';
import { REDACTED } from './redact';

describe(adminChangeData.name, () => {
  it('should name the actor, the target as sink and the changed fields when a resource changes', () => {
    const actor = { type: 'USER', id: 'u1', label: 'ada@example.com' };

    const sut = adminChangeData(actor, 'UPDATED', {
      target: { kind: 'IDENTITY_PROVIDER', id: 'p1', name: 'Okta' },
      before: { name: 'Okta', clientSecret: 'a' },
      after: { name: 'Okta', clientSecret: 'b' },
    });

    expect(sut).toEqual({
      actor,
      sink: { type: 'IDENTITY_PROVIDER', id: 'p1', label: 'Okta' },
      summary: 'identity provider Okta updated: clientSecret',
      change: 'UPDATED',
      target: { kind: 'IDENTITY_PROVIDER', id: 'p1', name: 'Okta' },
      fields: ['clientSecret'],
      changes: { clientSecret: { before: REDACTED, after: REDACTED } },
    });
  });
});
