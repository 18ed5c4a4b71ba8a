import { exposedItems, memberGrant, offersUri } from './virtual-names';

describe('virtual names (D52)', () => {
  it('should prefix and filter tools when the member names a filter', () => {
    const member = { serverId: 's', prefix: 'crm', tools: ['lookup'] };
    const items = [{ name: 'lookup', description: 'd' }, { name: 'echo' }];

    expect(exposedItems('tools/list', member, items)).toEqual([
      { name: 'crm__lookup', description: 'd' },
    ]);
  });

  it('should expose every item when the filter is absent, and resources by name or URI', () => {
    const all = { serverId: 's', prefix: 'm' };
    const byUri = { serverId: 's', prefix: 'm', resources: ['memo://b'] };
    const resources = [
      { name: 'a', uri: 'memo://a' },
      { name: 'b', uri: 'memo://b' },
    ];

    expect(exposedItems('prompts/list', all, [{ name: 'p' }])).toEqual([{ name: 'm__p' }]);
    expect(exposedItems('resources/list', byUri, resources)).toEqual([
      { name: 'm__b', uri: 'memo://b' },
    ]);
    expect(exposedItems('tools/list', all, undefined)).toEqual([]);
  });

  it('should translate a grant of exposed names into the member own names', () => {
    expect(memberGrant(null, 'crm')).toBeNull();
    expect(memberGrant(['crm__lookup', 'ops__echo', 'crmx__y'], 'crm')).toEqual(['lookup']);
  });

  it('should find a URI among listed resources or under a template fixed start', () => {
    const listed = {
      resources: [{ uri: 'memo://a' }],
      templates: [{ uriTemplate: 'memo://users/{id}' }, { uriTemplate: '{whole}' }],
    };

    expect(offersUri(listed, 'memo://a')).toBe(true);
    expect(offersUri(listed, 'memo://users/7')).toBe(true);
    expect(offersUri(listed, 'other://x')).toBe(false);
  });
});
