import { HttpProblem } from '@agp/http';

import { TrafficRequest } from '../pipeline/traffic-intake';
import { humanCallerOf } from './human-party';

function requestAs(kind: 'USER' | 'AGENT' | 'SERVICE'): TrafficRequest {
  return {
    principal: {
      kind,
      subject: '7d1c1f1e-3c1a-4c55-9a8e-2c5d0b0f0a01',
      tenantId: 'b2c3d4e5-0000-4000-8000-000000000001',
      permissions: new Set<string>(),
      scopes: ['svc:api'],
      label: 'Grace',
      tokenId: 't-1',
      expiresAt: 0,
    },
    headers: { 'x-correlation-id': 'c-1' },
    raw: { headers: { 'x-correlation-id': 'c-1' } },
  } as unknown as TrafficRequest;
}

describe('humanCallerOf', () => {
  it('should make the person the party when the token is a user’s', () => {
    const sut = humanCallerOf(requestAs('USER'));

    expect(sut).toMatchObject({
      tenantId: 'b2c3d4e5-0000-4000-8000-000000000001',
      agentId: '7d1c1f1e-3c1a-4c55-9a8e-2c5d0b0f0a01',
      user: { id: '7d1c1f1e-3c1a-4c55-9a8e-2c5d0b0f0a01', name: 'Grace' },
    });
  });

  it.each(['AGENT', 'SERVICE'] as const)(
    'should refuse with 403 when the token is of kind %s',
    (kind) => {
      let refusal: unknown;
      try {
        humanCallerOf(requestAs(kind));
      } catch (error) {
        refusal = error;
      }

      expect(refusal).toBeInstanceOf(HttpProblem);
      expect(refusal).toMatchObject({ status: 403 });
    },
  );
});
