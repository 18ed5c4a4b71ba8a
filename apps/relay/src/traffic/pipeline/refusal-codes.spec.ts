import { REFUSALS, refusalData } from './refusal-codes';

describe(refusalData.name, () => {
  it('should put agpCode beside what the site knows', () => {
    expect(refusalData(REFUSALS.reviewPending, { hitlRequestId: 'h', retryAfter: 5 })).toEqual({
      agpCode: 'review_pending',
      hitlRequestId: 'h',
      retryAfter: 5,
    });
  });
});
