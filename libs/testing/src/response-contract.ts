import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

interface OpenApiDocument {
  paths: Record<string, Record<string, { responses?: Record<string, OpenApiResponse> }>>;
}
interface OpenApiResponse {
  content?: Record<string, { schema?: object }>;
}

interface Route {
  path: string;
  pattern: RegExp;
  parameters: number;
}

const DOCUMENT_ID = 'agp-openapi';
/** Served beside every service prefix and described nowhere (D1, F20). */
const UNDESCRIBED = /^\/(openapi\.json|asyncapi\.json|docs)(\/|$)/;
const UNKNOWN_ROUTE_STATUSES = new Set([404, 405]);

/** Something that answers `inject` as fastify does: an app or its fastify instance. */
interface Injectable {
  inject: FastifyInstance['inject'];
}

/** A request to no documented path may only be a problem+json 404 or 405 (issue 18, § 2, D12). */
export function checkResponsesAgainst(
  target: Injectable,
  document: (inject: FastifyInstance['inject']) => Promise<object> | object,
): void {
  let checker: Promise<ResponseChecker> | undefined;
  const inject = target.inject.bind(target) as (options: InjectOptions | string) => unknown;
  const checked = async (options: InjectOptions | string): Promise<LightMyRequestResponse> => {
    const response = (await inject(options)) as LightMyRequestResponse;
    checker ??= Promise.resolve(document(inject as FastifyInstance['inject'])).then(
      (d) => new ResponseChecker(d as OpenApiDocument),
    );
    // As the app saw the request: light-my-request accepts a URL as a string or as its parts.
    const { method = 'GET', url = '/' } = response.raw.req;
    (await checker).check(method, url, response);
    return response;
  };
  // `inject()` without options is light-my-request's chain; only calls with options are checked.
  target.inject = ((options?: InjectOptions | string) =>
    options === undefined
      ? inject(options as never)
      : checked(options)) as FastifyInstance['inject'];
}

export class ResponseChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly routes: Route[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly document: OpenApiDocument) {
    addFormats(this.ajv);
    this.ajv.addSchema(document, DOCUMENT_ID);
    this.routes = Object.keys(document.paths)
      .map((path) => ({
        path,
        parameters: (path.match(/\{/g) ?? []).length,
        pattern: new RegExp(
          `^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}/]+\}/g, '[^/]+')}/?$`,
        ),
      }))
      .sort((a, b) => a.parameters - b.parameters);
  }

  check(method: string, url: string, response: LightMyRequestResponse): void {
    const path = url.split('?')[0].replace(/^https?:\/\/[^/]+/, '');
    if (UNDESCRIBED.test(path)) {
      return;
    }
    const verb = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
    const route = this.routes.find(
      (r) => r.pattern.test(path) && this.document.paths[r.path]?.[verb],
    );
    const where = `${method.toUpperCase()} ${path}`;
    const status = response.statusCode;
    if (!route) {
      if (!UNKNOWN_ROUTE_STATUSES.has(status)) {
        this.fail(
          where,
          status,
          response,
          'the path and method are in no operation of the document',
        );
      }
      this.checkBody(where, status, response, this.problemPointer(), method);
      return;
    }
    const responses = this.document.paths[route.path][verb].responses ?? {};
    const documented = responses[String(status)] ? String(status) : undefined;
    if (!documented) {
      this.fail(
        where,
        status,
        response,
        `status ${status} is not documented for ${verb} ${route.path} ` +
          `(documented: ${Object.keys(responses).join(', ')})`,
      );
    }
    const content = responses[documented].content;
    if (!content) {
      return; // a status without a body (204), or a reply the handler writes in its protocol
    }
    const mediaType = String(response.headers['content-type'] ?? '')
      .split(';')[0]
      .trim();
    if (!content[mediaType]) {
      if (response.body === '' || method.toUpperCase() === 'HEAD') {
        this.fail(
          where,
          status,
          response,
          `no body, where the document promises ${Object.keys(content).join(', ')}`,
        );
      }
      this.fail(
        where,
        status,
        response,
        `content type ${mediaType || '(none)'} is not documented (documented: ${Object.keys(content).join(', ')})`,
      );
    }
    // A page or a stream (text/html, text/csv) is checked for its media type only.
    if (content[mediaType].schema && /[/+]json$/.test(mediaType)) {
      const pointer = [
        'paths',
        route.path,
        verb,
        'responses',
        documented,
        'content',
        mediaType,
        'schema',
      ]
        .map((segment) => encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1')))
        .join('/');
      this.checkBody(where, status, response, `#/${pointer}`, method);
    }
  }

  private problemPointer(): string {
    return '#/components/schemas/Problem';
  }

  private checkBody(
    where: string,
    status: number,
    response: LightMyRequestResponse,
    pointer: string,
    method: string,
  ): void {
    if (method.toUpperCase() === 'HEAD') {
      return; // HEAD answers never carry a body, errors included
    }
    if (response.body === '') {
      if (status !== 204 && !/^2/.test(String(status))) {
        this.fail(where, status, response, 'an error answered without a problem+json body (D12)');
      }
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(response.body);
    } catch {
      this.fail(where, status, response, 'the body is not JSON');
    }
    const validate = this.validator(pointer);
    if (!validate(body)) {
      const errors = (validate.errors ?? [])
        .slice(0, 8)
        .map((e) => `${e.instancePath || '(body)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`)
        .join('; ');
      this.fail(where, status, response, `the body does not match ${pointer}: ${errors}`);
    }
  }

  private validator(pointer: string): ValidateFunction {
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DOCUMENT_ID}${pointer}` });
      this.validators.set(pointer, validate);
    }
    return validate;
  }

  private fail(
    where: string,
    status: number,
    response: LightMyRequestResponse,
    why: string,
  ): never {
    throw new Error(
      `response contract (issue 18 § 2): ${where} answered ${status}: ${why}\n` +
        `body: ${response.body.slice(0, 600)}`,
    );
  }
}
