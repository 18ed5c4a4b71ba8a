import { DEFAULT_OUTPUT_ESTIMATE, costOf, estimatedTokens } from './llm-cost';
import { formatPico } from './usd';

describe('costOf', () => {
  const prices = { inputPerMillion: '2.5', outputPerMillion: '10', cachedInputPerMillion: '1.25' };

  it('should price uncached, cached and output tokens exactly', () => {
    const cost = costOf(prices, { promptTokens: 1_000, cachedTokens: 400, completionTokens: 50 });
    // 600 × 2.5 + 400 × 1.25 + 50 × 10 = 1500 + 500 + 500 = 2500 per million
    expect(formatPico(cost)).toBe('0.0025');
  });

  it('should price cached tokens as input when the model has no cached price', () => {
    const cost = costOf(
      { inputPerMillion: '0.15', outputPerMillion: '0.6' },
      { promptTokens: 7, cachedTokens: 3, completionTokens: 3 },
    );
    expect(formatPico(cost)).toBe('0.00000285');
  });

  it('should be exact where a float sum is not', () => {
    const one = costOf(
      { inputPerMillion: '0.1', outputPerMillion: '0.2' },
      { promptTokens: 1_000_000, completionTokens: 1_000_000 },
    );
    expect(formatPico(one)).toBe('0.3');
    expect(0.1 + 0.2).not.toBe(0.3);
  });

  it('should count missing or nonsense token counts as none and never more cached than prompt', () => {
    expect(costOf(prices, {})).toBe(0n);
    expect(formatPico(costOf(prices, { promptTokens: 10, cachedTokens: 50 }))).toBe('0.0000125');
    expect(costOf(prices, { promptTokens: -5, completionTokens: 1.5 })).toBe(0n);
  });
});

describe('estimatedTokens', () => {
  it('should read the messages at four bytes a token and the output the request allows', () => {
    const messages = [{ role: 'user', content: 'x'.repeat(100) }];
    const bytes = JSON.stringify(messages).length;
    expect(estimatedTokens({ messages, max_tokens: 20 })).toEqual({
      promptTokens: Math.ceil(bytes / 4),
      completionTokens: 20,
    });
    expect(
      estimatedTokens({ messages, max_completion_tokens: 7, max_tokens: 20 }).completionTokens,
    ).toBe(7);
    expect(estimatedTokens({ messages }).completionTokens).toBe(DEFAULT_OUTPUT_ESTIMATE);
  });
});
