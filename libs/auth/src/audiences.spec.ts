import { audienceForPath, audiencesFor, bearerChallenge } from './audiences';

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

describe(bearerChallenge.name, () => {
  const audiences = audiencesFor('https://agp.example.com');
  const serverId = '7b0e7a52-3d7e-4c1e-9d5e-0c2f9f1d2a11';

  it('should name the MCP server protected-resource metadata and scope without an error when no token came', () => {
    const sut = bearerChallenge(audiences, `/relay/mcp/${serverId}`, false);

    expect(sut).toBe(
      `Bearer resource_metadata="https://agp.example.com/.well-known/oauth-protected-resource/relay/mcp/${serverId}", scope="mcp:call"`,
    );
  });

  it('should add invalid_token when a token came and failed on an MCP server path', () => {
    const sut = bearerChallenge(audiences, `/relay/mcp/${serverId.toUpperCase()}?x=1`, true);

    expect(sut).toContain(`/relay/mcp/${serverId}"`);
    expect(sut).toMatch(/, error="invalid_token"$/);
  });

  it('should keep the plain challenge on every other path', () => {
    expect(bearerChallenge(audiences, '/relay/v1/agents', false)).toBe(
      'Bearer error="invalid_token"',
    );
  });
});
