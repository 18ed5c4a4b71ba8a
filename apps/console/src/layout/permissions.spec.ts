import type { PermissionEntry } from '../api/platform';
import { can } from './permissions';

describe(can.name, () => {
  const granted: PermissionEntry[] = [
    { entity: 'AUDIT', permission: 'READ' },
    { entity: 'REGISTRY', permission: 'WRITE' },
  ];

  it('should allow exactly the entity and permission granted', () => {
    expect(can(granted, 'AUDIT', 'READ')).toBe(true);
    expect(can(granted, 'REGISTRY', 'WRITE')).toBe(true);
  });

  it('should not infer one permission from another when operation 2 did not list it', () => {
    expect(can(granted, 'AUDIT', 'WRITE')).toBe(false);
    expect(can(granted, 'REGISTRY', 'READ')).toBe(false);
    expect(can([], 'AUDIT', 'READ')).toBe(false);
  });
});
