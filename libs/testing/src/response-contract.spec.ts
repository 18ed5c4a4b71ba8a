import Fastify, { FastifyInstance } from 'fastify';

import { checkResponsesAgainst } from './response-contract';

const PROBLEM = {
  type: 'object',
  required: ['status', 'title'],
  properties: { status: { type: 'integer' }, title: { type: 'string' } },
};

const DOCUMENT = {
  openapi: '3.1.0',
  paths: {
    '/things/{thingId}': {
      get: {
        responses: {
          '200': {
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['id'],
                  properties: { id: { type: 'string', format: 'uuid' } },
                  additionalProperties: false,
                },
              },
            },
          },
          '404': {
            content: {
              'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
            },
          },
        },
      },
    },
  },
  components: { schemas: { Problem: PROBLEM } },
};

const ID = '7f0d7c43-3c0e-4a52-9a59-2b7d0f1d8c11';

describe(checkResponsesAgainst.name, () => {
  let sut: FastifyInstance;
  let answer: { status: number; type: string; body: unknown };

  beforeEach(async () => {
    sut = Fastify();
    sut.get('/things/:thingId', (_request, reply) =>
      reply.code(answer.status).type(answer.type).send(JSON.stringify(answer.body)),
    );
    sut.get('/undocumented', (_request, reply) => reply.send({}));
    sut.setNotFoundHandler((_request, reply) =>
      reply.code(404).type('application/problem+json').send({ status: 404, title: 'Not Found' }),
    );
    await sut.ready();
    checkResponsesAgainst(sut, () => DOCUMENT);
  });

  afterEach(async () => {
    await sut.close();
  });

  it('should pass an answer that matches the schema of its status', async () => {
    answer = { status: 200, type: 'application/json', body: { id: ID } };

    const response = await sut.inject({ method: 'GET', url: `/things/${ID}` });

    expect(response.statusCode).toBe(200);
  });

  it('should fail naming the field when the body does not match', async () => {
    answer = { status: 200, type: 'application/json', body: { id: 'x', leaked: 1 } };

    await expect(sut.inject({ method: 'GET', url: `/things/${ID}` })).rejects.toThrow(
      /GET \/things\/.+ answered 200: the body does not match .*must NOT have additional properties.*\/id must match format "uuid"/,
    );
  });

  it('should fail when the status is not documented', async () => {
    answer = { status: 409, type: 'application/problem+json', body: { status: 409, title: 'C' } };

    await expect(sut.inject(`/things/${ID}`)).rejects.toThrow(
      /status 409 is not documented for get \/things\/\{thingId\} \(documented: 200, 404\)/,
    );
  });

  it('should fail when an error is not the documented problem', async () => {
    answer = { status: 404, type: 'application/problem+json', body: { message: 'no' } };

    await expect(sut.inject(`/things/${ID}`)).rejects.toThrow(/must have required property/);
  });

  it('should fail when the content type is not documented', async () => {
    answer = { status: 404, type: 'application/json', body: { status: 404, title: 'N' } };

    await expect(sut.inject(`/things/${ID}`)).rejects.toThrow(
      /content type application\/json is not documented/,
    );
  });

  it('should fail for a route the document does not describe, unless it is a problem 404', async () => {
    await expect(sut.inject('/undocumented')).rejects.toThrow(/in no operation of the document/);
    await expect(sut.inject('/nowhere')).resolves.toMatchObject({ statusCode: 404 });
  });
});
