import { DomainException } from './domain.exception';
import { toProblem } from './to-problem';

class RefusedHop extends DomainException {
  readonly status = 403;
  override readonly extensions = { reasons: ['prompt injection'], status: 200, decisionId: 'd-1' };

  constructor() {
    super('blocked-by-policy', 'blocked by policy');
  }
}

describe(toProblem.name, () => {
  it('should carry the extension members of a domain exception, the standard members winning', () => {
    const sut = toProblem(new RefusedHop(), '/relay/llm/x', 'c-1');

    expect(sut.body).toEqual({
      type: 'urn:agp:problem:blocked-by-policy',
      title: 'Forbidden',
      status: 403,
      detail: 'blocked by policy',
      instance: '/relay/llm/x',
      correlationId: 'c-1',
      reasons: ['prompt injection'],
      decisionId: 'd-1',
    });
  });
});
