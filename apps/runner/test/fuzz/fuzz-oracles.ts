import { FuzzCase } from './fuzz-case';
import { FuzzOperation } from './fuzz-operations';
import { FuzzAnswer, FuzzRequest } from './fuzz-platform';
import { FuzzWorld } from './fuzz-world';

/** The kinds of defect the oracles name: the keys of the figures and of recorded cases. */
export type DefectKind =
  | 'server-error'
  | 'not-problem-json'
  | 'leaks-internals'
  | 'cross-tenant-read'
  | 'unauthorised-success'
  | 'no-correlation-id'
  | 'state-changed-by-rejected-write';

export interface Defect {
  kind: DefectKind;
  detail: string;
}

const PROBLEM_FIELDS = ['type', 'title', 'detail', 'instance', 'correlationId'] as const;

/** What a stack trace or an SQL error looks like in text (D12: never in a body). */
const INTERNALS: ReadonlyArray<[string, RegExp]> = [
  ['stack frame', /\bat (?:async )?[\w$.<>[\] ]+ \([^)]*:\d+:\d+\)/],
  ['stack frame', /\n\s+at [^\n]+:\d+:\d+/],
  ['source path', /(?:node_modules|\/dist\/|\/src\/)[\w./-]+\.(?:js|ts)\b/],
  ['error class', /\b(?:TypeError|ReferenceError|RangeError|SyntaxError|QueryFailedError)\b/],
  ['javascript error', /Cannot read propert(?:y|ies) of|is not a function|Maximum call stack/],
  [
    'SQL error',
    /syntax error at or near|violates (?:unique|foreign key|check|not-null) constraint|duplicate key value|invalid input syntax for|relation "[^"]+" does not exist|column "[^"]+" (?:of relation|does not exist)|invalid byte sequence for encoding|unsupported Unicode escape sequence/i,
  ],
  [
    'SQL statement',
    /\b(?:SELECT\s[\s\S]{1,200}?\sFROM|INSERT INTO|UPDATE\s+"?\w+"?\s+SET|DELETE FROM)\s+"?\w/i,
  ],
];

function contentTypeOf(answer: FuzzAnswer): string {
  return String(answer.headers['content-type'] ?? '');
}

/**
 * Three kinds of route answer errors in the form their protocol prescribes rather than D12's: the
 * token endpoint as RFC 6749 § 5.2 (D7) and dynamic registration as RFC 7591 § 3.2.2 (identity.md
 * I24), browser sign-in (its form, the federated redirect and
 * callback, logout) as an HTML page a person can read, and the JSON-RPC traffic paths as JSON-RPC
 * errors (D41, D61; the token and the address stay D12's, T46).
 */
const OAUTH_ERRORS = new Set([
  'POST /tenant-auth/v1/oauth/token',
  'POST /tenant-auth/v1/oauth/register',
]);
const BROWSER_PAGES =
  /^(GET|POST) \/tenant-auth\/v1\/(oauth\/authorize|oauth\/logout|identity-providers\/\{id\}\/callback)/;
const JSON_RPC_PATHS = /^(GET|POST|DELETE) \/relay\/(mcp|a2a)\//;

/** A JSON-RPC error answer (one, or a batch of them): `{jsonrpc: "2.0", id, error: {code, message}}`. */
function isJsonRpcError(answer: FuzzAnswer): boolean {
  if (!contentTypeOf(answer).startsWith('application/json')) {
    return false;
  }
  let value: unknown;
  try {
    value = JSON.parse(answer.body);
  } catch {
    return false;
  }
  const errors = Array.isArray(value) ? (value as unknown[]) : [value];
  return (
    errors.length > 0 &&
    errors.every((item) => {
      const error = (item as { jsonrpc?: unknown; error?: Record<string, unknown> } | null)?.error;
      return (
        (item as { jsonrpc?: unknown }).jsonrpc === '2.0' &&
        typeof error?.code === 'number' &&
        typeof error.message === 'string'
      );
    })
  );
}

function errorFormatDefects(operation: FuzzOperation, answer: FuzzAnswer): Defect[] {
  if (OAUTH_ERRORS.has(operation.key)) {
    // What fails before the route runs (a body that does not parse, too large, of another media
    // type) is answered by the HTTP layer, in D12's form; the grant's own errors in RFC 6749's.
    const body = parseJson(answer.body);
    const isOAuthError =
      contentTypeOf(answer).startsWith('application/json') && typeof body?.error === 'string';
    return isOAuthError || problemDefects(answer).length === 0
      ? []
      : [{ kind: 'not-problem-json', detail: 'neither RFC 6749 § 5.2 nor problem+json' }];
  }
  if (BROWSER_PAGES.test(operation.key) && contentTypeOf(answer).startsWith('text/html')) {
    return [];
  }
  if (JSON_RPC_PATHS.test(operation.key) && isJsonRpcError(answer)) {
    return answer.status === 429 && answer.headers['retry-after'] === undefined
      ? [{ kind: 'not-problem-json', detail: '429 without Retry-After' }]
      : [];
  }
  return problemDefects(answer);
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function problemDefects(answer: FuzzAnswer): Defect[] {
  if (!contentTypeOf(answer).startsWith('application/problem+json')) {
    return [{ kind: 'not-problem-json', detail: `content-type "${contentTypeOf(answer)}"` }];
  }
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(answer.body) as Record<string, unknown>;
  } catch {
    return [{ kind: 'not-problem-json', detail: 'body is not JSON' }];
  }
  const missing = PROBLEM_FIELDS.filter((field) => typeof body[field] !== 'string');
  const defects: Defect[] = [];
  if (missing.length || body.status !== answer.status) {
    defects.push({
      kind: 'not-problem-json',
      detail: `missing ${missing.join(', ') || 'none'}; status ${String(body.status)}`,
    });
  }
  const errors = body.errors;
  if (
    errors !== undefined &&
    (!Array.isArray(errors) ||
      errors.some(
        (e: Record<string, unknown>) =>
          typeof e?.field !== 'string' || typeof e?.message !== 'string',
      ))
  ) {
    defects.push({ kind: 'not-problem-json', detail: 'errors[] is not [{field, message}]' });
  }
  if (
    answer.status === 401 &&
    !String(answer.headers['www-authenticate'] ?? '').startsWith('Bearer')
  ) {
    defects.push({ kind: 'not-problem-json', detail: '401 without WWW-Authenticate: Bearer' });
  }
  if (answer.status === 429 && answer.headers['retry-after'] === undefined) {
    defects.push({ kind: 'not-problem-json', detail: '429 without Retry-After' });
  }
  return defects;
}

/**
 * The oracles of one answer (issue 18 § 3 Must show): no 5xx; every error problem+json with the
 * fields of D12; no stack trace or SQL in any body; nothing of the other tenant in it; no success
 * without a token or the route's permission, or on the other tenant's resource; a correlation id
 * on every answer (D13).
 */
export function answerDefects(
  operation: FuzzOperation,
  fuzzCase: FuzzCase,
  request: FuzzRequest,
  answer: FuzzAnswer,
  world: FuzzWorld,
  /** Whether the URL sent names a resource of the other tenant (not merely the case's wish). */
  namesForeignResource: boolean,
): Defect[] {
  const defects: Defect[] = [];
  const sent = `${request.url}\n${request.payload ?? ''}`;
  // The readiness probe answers 503 with its checks when a dependency does not answer in time:
  // its documented answer to an orchestrator, not an error (nor problem+json).
  const isProbe = operation.path.startsWith('/health/');
  if (answer.status >= 500 && !(isProbe && answer.status === 503)) {
    defects.push({ kind: 'server-error', detail: `${answer.status} ${answer.body.slice(0, 300)}` });
  }
  if (answer.status >= 400 && !isProbe) {
    defects.push(...errorFormatDefects(operation, answer));
  }
  for (const [what, pattern] of INTERNALS) {
    const found = pattern.exec(answer.body)?.[0];
    // A body may echo what the request said (a name of "DELETE FROM x"): only new text counts.
    if (found && !sent.includes(found) && !safeDecode(sent).includes(found)) {
      defects.push({ kind: 'leaks-internals', detail: `${what}: ${found.slice(0, 120)}` });
      break;
    }
  }
  if (!answer.headers['x-correlation-id']) {
    defects.push({
      kind: 'no-correlation-id',
      detail: `${answer.status} without X-Correlation-Id`,
    });
  }
  const tenant = FuzzWorld.tenantOf(fuzzCase.caller);
  const isSuccess = answer.status >= 200 && answer.status < 300;
  if (tenant) {
    const other = world.identifiers[tenant === 'a' ? 'b' : 'a'];
    const leaked = [
      ...answer.body.matchAll(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi),
    ]
      .map((match) => match[0].toLowerCase())
      .filter((id) => other.has(id) && !sent.toLowerCase().includes(id));
    if (leaked.length) {
      defects.push({ kind: 'cross-tenant-read', detail: `${answer.status} names ${leaked[0]}` });
    }
    if (isSuccess && namesForeignResource && !operation.isTraffic) {
      defects.push({
        kind: 'cross-tenant-read',
        detail: `${answer.status} for a resource of the other tenant (D12: 404)`,
      });
    }
  }
  if (isSuccess && !operation.isPublic) {
    if (fuzzCase.caller === 'no-token') {
      defects.push({ kind: 'unauthorised-success', detail: `${answer.status} without a token` });
    } else if (
      fuzzCase.caller === 'too-few-permissions' &&
      operation.permission &&
      !world.grantedToReader.has(operation.permission)
    ) {
      defects.push({
        kind: 'unauthorised-success',
        detail: `${answer.status} without ${operation.permission}`,
      });
    }
  }
  return defects;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
