import { PROBLEM_CONTENT_TYPE, statusTitle } from '../problem-details';

/** RFC 9457 problem details as every error of the platform answers them (D12). */
export const PROBLEM_SCHEMA = {
  type: 'object',
  required: ['type', 'title', 'status', 'detail', 'instance', 'correlationId'],
  properties: {
    type: { type: 'string', description: 'A URN naming the kind of error.' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    instance: { type: 'string', description: 'The request path.' },
    correlationId: { type: 'string' },
    errors: {
      type: 'array',
      description: 'Each bad input field (400).',
      items: {
        type: 'object',
        required: ['field', 'message'],
        properties: { field: { type: 'string' }, message: { type: 'string' } },
      },
    },
  },
};

const WHEN: Record<number, string> = {
  400: 'The body, query, path or headers are not valid: `errors` lists each field (D12).',
  401: 'No valid bearer token (D8).',
  403: "The token lacks the permission of the route, or the resource is not the caller's (D10).",
  404: "No such resource in the caller's tenant.",
  409: 'The change conflicts with the current state.',
  415: 'The body is not JSON.',
  429: 'Too many requests.',
  503: 'An id the request names could not be checked with the service that owns it; retry after `Retry-After` (issue 30).',
};

interface Route {
  isPublic: boolean;
  hasInput: boolean;
  hasBody: boolean;
  hasPathIds: boolean;
  verb: string;
}

export function problemResponses(route: Route): Record<string, object> {
  const statuses = [
    ...(route.hasInput ? [400] : []),
    // Beside the route's permission, a service may refuse what is not the caller's (D10, D21).
    ...(route.isPublic ? [] : [401, 403]),
    // An id another service owns is checked with that service when this one does not hold it yet.
    ...(route.hasPathIds || route.hasBody ? [404, 503] : []),
    ...(['post', 'put', 'patch', 'delete'].includes(route.verb) ? [409] : []),
    ...(['post', 'put', 'patch'].includes(route.verb) ? [415] : []),
  ];
  return Object.fromEntries(
    statuses.map((status) => [
      String(status),
      {
        description: `${statusTitle(status)}. ${WHEN[status] ?? ''}`.trim(),
        content: problemContent(),
      },
    ]),
  );
}

/** The content of every problem answer (D12). */
export function problemContent(): object {
  return { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: '#/components/schemas/Problem' } } };
}
