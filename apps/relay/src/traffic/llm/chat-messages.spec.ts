import {
  completionText,
  parseChatRequest,
  requestText,
  resendDigestOf,
  upstreamRequest,
} from './chat-messages';

describe(parseChatRequest.name, () => {
  it('should list every bad field of a request', () => {
    const sut = parseChatRequest({ model: '', messages: [{ content: 'x' }, 3], stream: 'yes' });

    expect('errors' in sut && sut.errors.map((e) => e.field)).toEqual([
      'model',
      'messages.0.role',
      'messages.1',
      'stream',
    ]);
  });

  it('should pass a request with fields the relay does not read', () => {
    const sut = parseChatRequest({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hi' }],
      temperature: 0.2,
    });

    expect('request' in sut && sut.request.temperature).toBe(0.2);
  });
});

describe(requestText.name, () => {
  it('should join string content, text parts and tool call arguments', () => {
    const sut = requestText({
      model: 'm',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image_url' }] },
        { role: 'assistant', tool_calls: [{ function: { name: 'f', arguments: '{"a":1}' } }] },
      ],
    });

    expect(sut).toBe('be brief\nlook\n{"a":1}');
  });
});

describe(completionText.name, () => {
  it('should read what the choices say', () => {
    expect(
      completionText({
        choices: [{ message: { content: 'one' } }, { message: { content: 'two', refusal: 'no' } }],
      }),
    ).toBe('one\ntwo\nno');
  });
});

describe(resendDigestOf.name, () => {
  it('should ignore the streaming options and the key order', () => {
    const a = resendDigestOf({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    const b = resendDigestOf({
      messages: [{ content: 'x', role: 'user' }],
      stream: true,
      stream_options: { include_usage: true },
      model: 'm',
    });

    expect(a).toBe(b);
  });
});

describe(upstreamRequest.name, () => {
  it('should name the mapped model and ask a stream for its usage', () => {
    const sut = upstreamRequest({ model: 'fast', messages: [], stream: true }, 'gpt-4o-mini');

    expect(sut).toEqual({
      model: 'gpt-4o-mini',
      messages: [],
      stream: true,
      stream_options: { include_usage: true },
    });
  });
});
