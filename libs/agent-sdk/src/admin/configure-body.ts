import { AgentConfig, resolveConfig, stripTrailingSlashes } from '../config/agent-config';

const FIELDS: Record<string, keyof ConfigureBody> = {
  agent_id: 'agentId',
  agentId: 'agentId',
  client_secret: 'clientSecret',
  clientSecret: 'clientSecret',
  base_url: 'baseUrl',
  baseUrl: 'baseUrl',
  token_url: 'tokenUrl',
  tokenUrl: 'tokenUrl',
  webhook_secret: 'webhookSecret',
  webhookSecret: 'webhookSecret',
};

export interface ConfigureBody {
  agentId?: string;
  clientSecret?: string;
  baseUrl?: string;
  tokenUrl?: string;
  webhookSecret?: string;
}

export interface FieldError {
  field: string;
  message: string;
}

function isHttpUrl(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** Reads the body, listing every wrong field (D12's habit) rather than the first. */
export function parseConfigureBody(body: unknown): { body: ConfigureBody; errors: FieldError[] } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return { body: {}, errors: [{ field: '', message: 'body must be a JSON object' }] };
  }
  const parsed: ConfigureBody = {};
  const errors: FieldError[] = [];
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    const field = FIELDS[name];
    if (!field) {
      errors.push({ field: name, message: 'unknown property' });
    } else if (value === null || value === undefined) {
      continue;
    } else if (typeof value !== 'string' || value.trim() === '') {
      errors.push({ field: name, message: 'must be a non-empty string' });
    } else if ((field === 'baseUrl' || field === 'tokenUrl') && !isHttpUrl(value)) {
      errors.push({ field: name, message: 'must be an http or https URL' });
    } else {
      parsed[field] = value.trim();
    }
  }
  for (const [field, name] of [
    ['agentId', 'agent_id'],
    ['clientSecret', 'client_secret'],
  ] as const) {
    if (!parsed[field] && !errors.some((error) => FIELDS[error.field] === field)) {
      errors.push({ field: name, message: 'is required' });
    }
  }
  return { body: parsed, errors };
}

/** Later ones may keep them. */
export function missingAddresses(
  body: ConfigureBody,
  current: AgentConfig | undefined,
): FieldError[] {
  const missing: FieldError[] = [];
  if (!body.baseUrl && !current?.baseUrl) {
    missing.push({ field: 'base_url', message: 'is required on the first configure' });
  }
  if (!body.tokenUrl && !current?.tokenUrl) {
    missing.push({ field: 'token_url', message: 'is required on the first configure' });
  }
  return missing;
}

export function configureFrom(body: ConfigureBody, current: AgentConfig | undefined): AgentConfig {
  return resolveConfig({
    agentId: body.agentId,
    clientSecret: body.clientSecret,
    baseUrl: stripTrailingSlashes(body.baseUrl ?? current?.baseUrl ?? ''),
    tokenUrl: stripTrailingSlashes(body.tokenUrl ?? current?.tokenUrl ?? ''),
    webhookSecret: body.webhookSecret ?? current?.webhookSecret,
    timeoutMs: current?.timeoutMs,
    maxRetries: current?.maxRetries,
    retryBaseDelayMs: current?.retryBaseDelayMs,
  });
}
