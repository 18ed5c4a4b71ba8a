import { IncomingHttpHeaders, IncomingMessage, ServerResponse, createServer } from 'node:http';
import { AddressInfo } from 'node:net';

export type ProviderBehaviour =
  | { kind: 'answer' }
  /** Answers this status with an OpenAI error body, before any byte of a completion. */
  | { kind: 'status'; status: number; times?: number }
  /** Waits this long before its headers (a provider too slow for the relay's timeout). */
  | { kind: 'slow'; delayMs: number }
  // Answers 200, sends the first `afterWords` words (streamed: as chunks; whole: the body cut
  // short), waits `pauseMs` (default 300), then cuts the connection: a provider failing mid-answer.
  | { kind: 'break'; afterWords: number; pauseMs?: number }
  /** Answers 200 and the first `afterWords` words, then sends nothing more (a provider that hangs). */
  | { kind: 'stall'; afterWords: number };

export interface ProviderCall {
  body: Record<string, unknown>;
  headers: IncomingHttpHeaders;
}

export interface OpenAiTestProvider {
  baseUrl: string;
  calls: ProviderCall[];
  behave(behaviour: ProviderBehaviour): void;
  close(): Promise<void>;
}

export interface OpenAiTestProviderOptions {
  /** The assistant's text for a request; by default `Echo: <last user message>`. */
  reply?: (body: Record<string, unknown>) => string;
  behaviour?: ProviderBehaviour;
  chunkDelayMs?: number;
  model?: string;
  /** The `usage` it reports; by default words of the last user message and of the reply. */
  usage?: (body: Record<string, unknown>) => Record<string, unknown>;
  /** Function calls to answer with instead of text (their arguments streamed in pieces). */
  toolCalls?: (body: Record<string, unknown>) => TestToolCall[] | undefined;
}

export interface TestToolCall {
  name: string;
  /** The arguments as the model writes them: a JSON string, or not. */
  arguments: string;
}

function lastUserText(body: Record<string, unknown>): string {
  const messages = Array.isArray(body.messages)
    ? (body.messages as Array<Record<string, unknown>>)
    : [];
  const user = [...messages].reverse().find((m) => m.role === 'user');
  return typeof user?.content === 'string' ? user.content : '';
}

/** The `break` and `stall` behaviours: a 200 and the start of an answer, then a cut or silence. */
async function failMidAnswer(
  response: ServerResponse,
  behaviour: Extract<ProviderBehaviour, { kind: 'break' | 'stall' }>,
  isStreamed: boolean,
  envelope: Record<string, unknown>,
  pieces: string[],
): Promise<void> {
  const sent = pieces.slice(0, behaviour.afterWords);
  if (isStreamed) {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const content of [
      { role: 'assistant', content: '' },
      ...sent.map((c) => ({ content: c })),
    ]) {
      const choice = { index: 0, delta: content, finish_reason: null, logprobs: null };
      response.write(
        `data: ${JSON.stringify({ ...envelope, object: 'chat.completion.chunk', choices: [choice] })}\n\n`,
      );
    }
  } else {
    response.writeHead(200, { 'content-type': 'application/json' });
    const whole = JSON.stringify({ ...envelope, object: 'chat.completion', choices: [] });
    response.write(whole.slice(0, Math.max(1, Math.floor(whole.length / 2))));
  }
  if (behaviour.kind === 'stall') {
    await new Promise((resolve) => response.once('close', resolve));
    return;
  }
  await new Promise((resolve) => setTimeout(resolve, behaviour.pauseMs ?? 300));
  response.socket?.destroy();
}

/** An answer of function calls: whole, or streamed as OpenAI does (name first, arguments in pieces). */
function answerToolCalls(
  response: ServerResponse,
  isStreamed: boolean,
  calls: TestToolCall[],
  chunkDelayMs: number,
): void {
  const envelope = { id: 'chatcmpl-test', created: 1_764_000_000, model: 'test-model' };
  const whole = calls.map((call, n) => ({
    id: `call_${n}`,
    type: 'function',
    function: { name: call.name, arguments: call.arguments },
  }));
  if (!isStreamed) {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        ...envelope,
        object: 'chat.completion',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: null, tool_calls: whole },
            finish_reason: 'tool_calls',
            logprobs: null,
          },
        ],
      }),
    );
    return;
  }
  const deltas: Array<Record<string, unknown>> = [{ role: 'assistant', content: null }];
  whole.forEach((call, index) => {
    deltas.push({
      tool_calls: [
        {
          index,
          id: call.id,
          type: 'function',
          function: { name: call.function.name, arguments: '' },
        },
      ],
    });
    for (const piece of call.function.arguments.match(/[\s\S]{1,8}/g) ?? []) {
      deltas.push({ tool_calls: [{ index, function: { arguments: piece } }] });
    }
  });
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (delta: Record<string, unknown>, finish: string | null): string =>
    `data: ${JSON.stringify({ ...envelope, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }] })}\n\n`;
  void (async () => {
    for (const delta of deltas) {
      if (chunkDelayMs > 0) {
        await new Promise((resolve) => setTimeout(resolve, chunkDelayMs));
      }
      response.write(chunk(delta, null));
    }
    response.write(chunk({}, 'tool_calls'));
    response.end('data: [DONE]\n\n');
  })();
}

function words(text: string): string[] {
  return text.match(/\s*\S+/g) ?? [];
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) {
    chunks.push(chunk as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
}

/** An OpenAI-compatible provider for tests and benchmarks (D39). */
export async function startOpenAiTestProvider(
  options: OpenAiTestProviderOptions = {},
): Promise<OpenAiTestProvider> {
  const calls: ProviderCall[] = [];
  let behaviour: ProviderBehaviour = options.behaviour ?? { kind: 'answer' };
  const reply = options.reply ?? ((body) => `Echo: ${lastUserText(body)}`);
  const chunkDelayMs = options.chunkDelayMs ?? 0;

  const server = createServer((request, response) => {
    void handle(request, response).catch(() => response.destroy());
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.method === 'GET' && request.url === '/v1/models') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          object: 'list',
          data: [{ id: options.model ?? 'test-model', object: 'model' }],
        }),
      );
      return;
    }
    if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
      response.writeHead(404).end();
      return;
    }
    const body = await readJson(request);
    calls.push({ body, headers: request.headers });
    if (behaviour.kind === 'slow') {
      await new Promise((resolve) =>
        setTimeout(resolve, (behaviour as { delayMs: number }).delayMs),
      );
      if (response.destroyed) {
        return;
      }
    }
    if (behaviour.kind === 'status') {
      const { status, times } = behaviour;
      if (times !== undefined) {
        behaviour = times > 1 ? { kind: 'status', status, times: times - 1 } : { kind: 'answer' };
      }
      response.writeHead(status, {
        'content-type': 'application/json',
        'retry-after': '1',
      });
      response.end(
        JSON.stringify({
          error: { message: `test provider says ${status}`, type: 'server_error' },
        }),
      );
      return;
    }
    const toolCalls = options.toolCalls?.(body) ?? [];
    if (toolCalls.length > 0) {
      answerToolCalls(response, body.stream === true, toolCalls, chunkDelayMs);
      return;
    }
    const text = reply(body);
    const model = typeof body.model === 'string' ? body.model : 'test-model';
    const pieces = words(text);
    const usage = options.usage?.(body) ?? {
      prompt_tokens: words(lastUserText(body)).length,
      completion_tokens: pieces.length,
      total_tokens: words(lastUserText(body)).length + pieces.length,
    };
    const envelope = { id: 'chatcmpl-test', created: 1_764_000_000, model };
    if (behaviour.kind === 'break' || behaviour.kind === 'stall') {
      await failMidAnswer(response, behaviour, body.stream === true, envelope, pieces);
      return;
    }
    if (body.stream !== true) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          ...envelope,
          object: 'chat.completion',
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: text },
              finish_reason: 'stop',
              logprobs: null,
            },
          ],
          usage,
        }),
      );
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (payload: unknown): boolean =>
      response.write(`data: ${JSON.stringify(payload)}\n\n`);
    const chunk = (delta: Record<string, unknown>, finish: string | null): unknown => ({
      ...envelope,
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
    });
    send(chunk({ role: 'assistant', content: '' }, null));
    for (const piece of pieces) {
      if (chunkDelayMs > 0) {
        await new Promise((resolve) => setTimeout(resolve, chunkDelayMs));
      }
      send(chunk({ content: piece }, null));
    }
    send(chunk({}, 'stop'));
    const streamOptions = body.stream_options as { include_usage?: boolean } | undefined;
    if (streamOptions?.include_usage) {
      send({ ...envelope, object: 'chat.completion.chunk', choices: [], usage });
    }
    response.end('data: [DONE]\n\n');
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    calls,
    behave: (next) => {
      behaviour = next;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
