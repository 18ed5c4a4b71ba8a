import { defaultPrefix, memberOfName, resolveMembers } from './virtual-members';

describe('virtual members (D52)', () => {
  const servers = [
    { id: 'a', name: 'Billing Tools', transport: 'STREAMABLE_HTTP' },
    { id: 'b', name: 'crm', transport: 'STREAMABLE_HTTP' },
    { id: 'v', name: 'other virtual', transport: 'VIRTUAL' },
  ];

  it('should default a prefix to the name in lower-case letters, digits and single underscores', () => {
    expect(defaultPrefix('Billing Tools')).toBe('billing_tools');
    expect(defaultPrefix('  CRM -- v2!! ')).toBe('crm_v2');
    expect(defaultPrefix('ÄÖÜ')).toBe('member');
  });

  it('should find the member and its own name when the exposed name starts with its prefix', () => {
    const members = [
      { serverId: 'a', prefix: 'billing' },
      { serverId: 'b', prefix: 'crm' },
    ];

    expect(memberOfName(members, 'crm__lookup__x')).toEqual({
      member: members[1],
      name: 'lookup__x',
    });
    expect(memberOfName(members, 'ops__echo')).toBeUndefined();
    expect(memberOfName(members, 'crm__')).toBeUndefined();
    expect(memberOfName(members, '__echo')).toBeUndefined();
  });

  it('should resolve default prefixes when every member is a registered server once', () => {
    const resolved = resolveMembers([{ serverId: 'a' }, { serverId: 'b', tools: ['x'] }], servers);

    expect(resolved).toEqual({
      members: [
        { serverId: 'a', prefix: 'billing_tools' },
        { serverId: 'b', prefix: 'crm', tools: ['x'] },
      ],
    });
  });

  it('should name each wrong member when one is unknown, virtual, repeated, itself or shares a prefix', () => {
    const resolved = resolveMembers(
      [
        { serverId: 'a', prefix: 'x' },
        { serverId: 'b', prefix: 'x' },
        { serverId: 'v' },
        { serverId: 'a', prefix: 'y' },
        { serverId: 'self', prefix: 'z' },
      ],
      servers,
      'self',
    );

    expect('errors' in resolved && resolved.errors.map((e) => e.field)).toEqual([
      'members[1].prefix',
      'members[2].serverId',
      'members[3].serverId',
      'members[4].serverId',
    ]);
  });

  it('should refuse an installed marketplace server as a member (MK37)', () => {
    const resolved = resolveMembers(
      [{ serverId: 'a' }, { serverId: 'i' }],
      [...servers, { id: 'i', name: 'bought', transport: 'STREAMABLE_HTTP', installed: true }],
    );

    expect(resolved).toEqual({
      errors: [{ field: 'members[1].serverId', message: expect.stringContaining('bought') }],
    });
  });
});
