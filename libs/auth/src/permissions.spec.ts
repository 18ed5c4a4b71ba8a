import { allows, expandPermissions, parseRole } from './permissions';

describe(expandPermissions.name, () => {
  it('should expand ADMIN into every permission when a role is ADMIN', () => {
    expect(expandPermissions(['AUDIT:ADMIN'])).toEqual([
      { entity: 'AUDIT', permission: 'ADMIN' },
      { entity: 'AUDIT', permission: 'DELETE' },
      { entity: 'AUDIT', permission: 'READ' },
      { entity: 'AUDIT', permission: 'WRITE' },
    ]);
  });

  it('should add READ to WRITE and DELETE, dedupe and sort by entity when roles overlap', () => {
    expect(
      expandPermissions(['USERS:WRITE', 'AUDIT:DELETE', 'USERS:READ', 'nonsense', 'USERS:FLY']),
    ).toEqual([
      { entity: 'AUDIT', permission: 'DELETE' },
      { entity: 'AUDIT', permission: 'READ' },
      { entity: 'USERS', permission: 'READ' },
      { entity: 'USERS', permission: 'WRITE' },
    ]);
  });
});

describe(allows.name, () => {
  it('should allow an implied permission and refuse an unrelated one', () => {
    const granted = new Set(['TENANT:WRITE', 'AUDIT:ADMIN']);
    expect(allows(granted, 'TENANT', 'READ')).toBe(true);
    expect(allows(granted, 'TENANT', 'DELETE')).toBe(false);
    expect(allows(granted, 'AUDIT', 'DELETE')).toBe(true);
    expect(allows(granted, 'USERS', 'READ')).toBe(false);
  });

  it('should parse only known entities and permissions', () => {
    expect(parseRole('AUDIT:READ')).toEqual({ entity: 'AUDIT', permission: 'READ' });
    expect(parseRole('AUDIT:READ:X')).toBeUndefined();
    expect(parseRole('CATS:READ')).toBeUndefined();
  });
});
