import {
  A2A_DATA_SCHEMA_EXTENSION,
  answerPartsValidation,
  dataPartsOf,
  dataPartValidation,
  declaredDataSchema,
} from './a2a-validation';
import { answerHasSchemas, llmAnswerValidation, streamedAnswerValidation } from './llm-validation';
import { toolCallValidation } from './mcp-validation';
import { SchemaValidator } from './schema-validator';

const { check } = new SchemaValidator();
const order = {
  type: 'object',
  properties: { sku: { type: 'string' }, qty: { type: 'integer', minimum: 1 } },
  required: ['sku', 'qty'],
};

describe('what each traffic path checks against which schema (GR21–GR23)', () => {
  it('should check tools/call arguments against inputSchema and structuredContent against outputSchema', () => {
    const tool = { inputSchema: order, outputSchema: order };
    const call = (args: unknown) => ({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 't', arguments: args },
    });

    expect(toolCallValidation('REQUEST', call({ sku: 'a', qty: 2 }), tool, check)).toEqual([
      {
        target: 'TOOL_ARGUMENTS',
        schema: 'inputSchema',
        path: 'params.arguments',
        valid: true,
        errors: [],
      },
    ]);
    expect(toolCallValidation('REQUEST', call({ sku: 'a', qty: 0 }), tool, check)[0]).toMatchObject(
      {
        valid: false,
        errors: [{ path: '/qty', keyword: 'minimum' }],
      },
    );
    const answer = (result: unknown) => ({ jsonrpc: '2.0', id: 1, result });
    expect(
      toolCallValidation(
        'RESPONSE',
        answer({ content: [], structuredContent: { sku: 'a' } }),
        tool,
        check,
      )[0],
    ).toMatchObject({
      target: 'TOOL_STRUCTURED_CONTENT',
      valid: false,
      errors: [{ keyword: 'required' }],
    });
    expect(toolCallValidation('RESPONSE', answer({ content: [] }), tool, check)[0]).toMatchObject({
      valid: false,
      errors: [{ keyword: 'required', path: '' }],
    });
    expect(
      toolCallValidation('RESPONSE', answer({ content: [], isError: true }), tool, check),
    ).toEqual([]);
    expect(toolCallValidation('REQUEST', call({}), {}, check)).toEqual([]);
  });

  it('should check every A2A data part against the schema the card declares for its direction', () => {
    const card = {
      name: 'shop',
      capabilities: {
        extensions: [
          {
            uri: A2A_DATA_SCHEMA_EXTENSION,
            params: { request: order, response: { type: 'object' } },
          },
        ],
      },
    };
    const schema = declaredDataSchema(card, 'REQUEST');
    const message = {
      jsonrpc: '2.0',
      id: 1,
      method: 'message/send',
      params: {
        message: {
          parts: [
            { kind: 'text', text: 'order' },
            { kind: 'data', data: { sku: 'a', qty: 1 } },
            { data: { sku: 'b' } },
          ],
        },
      },
    };

    const results = dataPartValidation(message, schema, check);

    expect(results.map((r) => [r.path, r.valid])).toEqual([
      ['params.message.parts.1.data', true],
      ['params.message.parts.2.data', false],
    ]);
    expect(declaredDataSchema(card, 'RESPONSE')).toEqual({ type: 'object' });
    expect(declaredDataSchema({ name: 'plain' }, 'REQUEST')).toBeUndefined();
    expect(dataPartValidation(message, undefined, check)).toEqual([]);
  });

  it('should check each LLM choice against response_format, and JSON only for json_object', () => {
    const request = {
      response_format: { type: 'json_schema', json_schema: { name: 'o', schema: order } },
    };
    const completion = {
      choices: [
        { message: { role: 'assistant', content: '{"sku":"a","qty":1}' } },
        { message: { role: 'assistant', content: '{"sku":"a"}' } },
        { message: { role: 'assistant', content: 'Sure! here it is' } },
        { message: { role: 'assistant', content: null, tool_calls: [] } },
      ],
    };

    const results = llmAnswerValidation(request, completion, check);

    expect(results.map((r) => [r.path, r.valid, r.errors.map((e) => e.keyword)])).toEqual([
      ['choices.0.message.content', true, []],
      ['choices.1.message.content', false, ['required']],
      ['choices.2.message.content', false, ['json']],
    ]);
    expect(
      llmAnswerValidation({ response_format: { type: 'json_object' } }, completion, check).map(
        (r) => r.valid,
      ),
    ).toEqual([true, true, false]);
    expect(llmAnswerValidation({}, completion, check)).toEqual([]);
  });

  it("should check each tool call's arguments against the parameters of the request's function (GR35)", () => {
    const request = {
      tools: [
        { type: 'function', function: { name: 'quote', parameters: order } },
        { type: 'function', function: { name: 'ping' } },
      ],
    };
    const call = (name: string, args: string) => ({
      id: 'c',
      type: 'function',
      function: { name, arguments: args },
    });
    const completion = {
      choices: [
        {
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              call('quote', '{"sku":"a","qty":1}'),
              call('quote', '{"sku":"a","qty":0}'),
              call('quote', '{"sku":'),
              call('ping', '{}'),
              call('unknown', '{}'),
            ],
          },
        },
      ],
    };

    const results = llmAnswerValidation(request, completion, check);

    expect(results.map((r) => [r.target, r.path, r.valid, r.errors.map((e) => e.keyword)])).toEqual(
      [
        ['LLM_TOOL_ARGUMENTS', 'choices.0.message.tool_calls.0.function.arguments', true, []],
        [
          'LLM_TOOL_ARGUMENTS',
          'choices.0.message.tool_calls.1.function.arguments',
          false,
          ['minimum'],
        ],
        [
          'LLM_TOOL_ARGUMENTS',
          'choices.0.message.tool_calls.2.function.arguments',
          false,
          ['json'],
        ],
      ],
    );
    expect(answerHasSchemas(request)).toBe(true);
    expect(answerHasSchemas({ tools: [{ type: 'function', function: { name: 'ping' } }] })).toBe(
      false,
    );
    expect(answerHasSchemas({ response_format: { type: 'text' } })).toBe(false);
  });

  it('should not vouch for a streamed answer too long to have been kept whole (GR35)', () => {
    const request = {
      response_format: { type: 'json_schema', json_schema: { name: 'o', schema: order } },
    };
    const completion = {
      choices: [
        { message: { role: 'assistant', content: null } },
        { message: { role: 'assistant', content: '{"sku":"a","qty":1}' } },
      ],
    };

    const results = streamedAnswerValidation(
      request,
      completion,
      { choices: [0], limit: 10 },
      check,
    );

    expect(results.map((r) => [r.path, r.valid, r.errors.map((e) => e.keyword)])).toEqual([
      ['choices.0.message.content', false, ['size']],
      ['choices.1.message.content', true, []],
    ]);
    expect(streamedAnswerValidation({}, completion, { choices: [0], limit: 10 }, check)).toEqual(
      [],
    );
  });

  it("should check the data parts of an agent's answer to a channel, by their place in `parts` (GR37)", () => {
    const answered = [
      { kind: 'text', text: 'here' },
      { kind: 'data', data: { sku: 'a', qty: 1 } },
      { data: { sku: 'a' } },
    ];

    const parts = dataPartsOf(answered);
    const results = answerPartsValidation(parts, order, check);

    expect(parts).toHaveLength(2);
    expect(results.map((r) => [r.target, r.path, r.valid])).toEqual([
      ['A2A_DATA_PART', 'parts.0.data', true],
      ['A2A_DATA_PART', 'parts.1.data', false],
    ]);
    expect(answerPartsValidation(parts, undefined, check)).toEqual([]);
  });
});
