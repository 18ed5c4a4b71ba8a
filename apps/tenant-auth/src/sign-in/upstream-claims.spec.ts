import { groupChanges, readUpstreamClaims } from './upstream-claims';

describe(groupChanges.name, () => {
  const mappings = { admins: ['g-admin'], staff: ['g-staff', 'g-admin'], gone: ['g-deleted'] };
  const existing = new Set(['g-admin', 'g-staff']);

  it('should add the groups of every mapped provider group the user is in', () => {
    expect(groupChanges(mappings, ['staff'], existing)).toEqual({
      add: ['g-admin', 'g-staff'],
      remove: [],
    });
  });

  it('should remove the mapped groups the user is no longer in, and skip deleted groups', () => {
    expect(groupChanges(mappings, ['unrelated'], existing)).toEqual({
      add: [],
      remove: ['g-admin', 'g-staff'],
    });
  });

  it('should keep a group that one mapping still grants when another does not', () => {
    expect(groupChanges(mappings, ['admins'], existing)).toEqual({
      add: ['g-admin'],
      remove: ['g-staff'],
    });
  });
});

describe(readUpstreamClaims.name, () => {
  it('should lower-case the e-mail, fall back to it for the name and keep string groups only', () => {
    expect(readUpstreamClaims({ email: 'Ann@Example.org', groups: ['a', 3] })).toEqual({
      email: 'ann@example.org',
      name: 'ann@example.org',
      isEmailVerified: true,
      groups: ['a'],
    });
  });

  it('should mark an address the provider says is unverified, and refuse claims without an e-mail', () => {
    expect(readUpstreamClaims({ email: 'a@b.c', email_verified: false }).isEmailVerified).toBe(
      false,
    );
    expect(() => readUpstreamClaims({ name: 'x' })).toThrow('no e-mail');
  });
});
