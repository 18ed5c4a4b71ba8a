import { jsonLinesAsEvents } from './mcp-json-lines';

async function collect(chunks: string[]): Promise<string> {
  async function* body(): AsyncGenerator<string> {
    for (const chunk of chunks) {
      yield chunk;
    }
  }
  let out = '';
  for await (const text of jsonLinesAsEvents(body())) {
    out += text;
  }
  return out;
}

describe('jsonLinesAsEvents', () => {
  it('should make one SSE event of each line, also when a line spans chunks', async () => {
    const out = await collect(['{"a":1}\n{"b"', ':2}\r\n\n', '{"c":3}']);
    expect(out).toBe('data: {"a":1}\n\ndata: {"b":2}\n\ndata: {"c":3}\n\n');
  });

  it('should yield nothing for blank lines', async () => {
    expect(await collect(['\n', '  \n'])).toBe('');
  });
});
