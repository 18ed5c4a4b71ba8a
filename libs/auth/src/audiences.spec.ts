import { audienceForPath, audiencesFor } from './audiences';

describe(audienceForPath.name, () => {
  const audiences = audiencesFor('https://agp.example/');

  it.each([
    ['/relay/mcp/5b1c', 'https://agp.example/relay'],
    ['/relay/llm/5b1c/v1/chat/completions', 'https://agp.example/relay'],
    ['/relay/llm?x=1', 'https://agp.example/relay'],
    ['/relay/llmish', 'https://agp.example'],
    ['/relay/v1/llm-gateways', 'https://agp.example'],
  ])('should want for %s the audience %s', (path, expected) => {
    expect(audienceForPath(audiences, path)).toBe(expected);
  });
});
