/**
 * T95: a `subscriptions/listen` answer sent as `application/json` with one JSON-RPC message a line
 * (the conformance suite's reference server does this; the specification says SSE) is read as the
 * SSE events those lines would be, so both reach the same judged event path.
 */
export async function* jsonLinesAsEvents(
  body: AsyncIterable<Buffer | string>,
): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let rest = '';
  for await (const chunk of body) {
    rest += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    const lines = rest.split(/\r?\n/);
    rest = lines.pop() ?? '';
    const events = lines.filter((line) => line.trim().length > 0).map(asEvent);
    if (events.length > 0) {
      yield events.join('');
    }
  }
  rest += decoder.decode();
  if (rest.trim().length > 0) {
    yield asEvent(rest);
  }
}

function asEvent(line: string): string {
  // A JSON text holds no raw line break, so one `data:` line carries it whole.
  return `data: ${line.trim()}\n\n`;
}
