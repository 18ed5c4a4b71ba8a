import { ConfigurationError } from '../errors';
import {
  DEFAULT_BASE_URL,
  DEFAULT_TOKEN_URL,
  loadConfig,
  resolveConfig,
  runtimeConfigFromEnv,
} from './agent-config';

const REQUIRED = { SVC_AGENT_ID: 'a1', SVC_CLIENT_SECRET: 's1' };

function errorOf(work: () => unknown): ConfigurationError {
  try {
    work();
  } catch (error) {
    if (error instanceof ConfigurationError) {
      return error;
    }
    throw error;
  }
  throw new Error('expected a ConfigurationError');
}

describe(loadConfig.name, () => {
  it('should apply the defaults when only the required variables are set', () => {
    const sut = loadConfig({ env: REQUIRED });

    expect(sut).toEqual({
      agentId: 'a1',
      clientSecret: 's1',
      webhookSecret: undefined,
      baseUrl: DEFAULT_BASE_URL,
      tokenUrl: DEFAULT_TOKEN_URL,
      timeoutMs: 30_000,
      maxRetries: 3,
      retryBaseDelayMs: 500,
    });
  });

  it.each(['SVC_AGENT_ID', 'SVC_CLIENT_SECRET'])(
    'should name %s when it is missing or blank',
    (variable) => {
      const missing = errorOf(() => loadConfig({ env: { ...REQUIRED, [variable]: undefined } }));
      const blank = errorOf(() => loadConfig({ env: { ...REQUIRED, [variable]: '  ' } }));

      expect(missing.message).toBe(`${variable} is required`);
      expect(missing.variable).toBe(variable);
      expect(blank.variable).toBe(variable);
    },
  );

  it('should read <PREFIX>_ variables when a custom prefix is given', () => {
    const env = { ACME_AGENT_ID: 'a2', ACME_CLIENT_SECRET: 's2', ACME_WEBHOOK_SECRET: 'w2' };

    expect(loadConfig({ prefix: 'ACME', env })).toMatchObject({
      agentId: 'a2',
      webhookSecret: 'w2',
    });
    expect(loadConfig({ prefix: 'ACME_', env }).agentId).toBe('a2');
    expect(errorOf(() => loadConfig({ prefix: 'ACME', env: REQUIRED })).variable).toBe(
      'ACME_AGENT_ID',
    );
  });

  it('should strip every trailing slash from both addresses', () => {
    const sut = loadConfig({
      env: {
        ...REQUIRED,
        SVC_BASE_URL: 'https://agp.example.com//',
        SVC_TOKEN_URL: 'https://agp.example.com/tenant-auth/v1/oauth/token/',
      },
    });

    expect(sut.baseUrl).toBe('https://agp.example.com');
    expect(sut.tokenUrl).toBe('https://agp.example.com/tenant-auth/v1/oauth/token');
  });

  it('should read the timeout in seconds and the retries when they are set', () => {
    const sut = loadConfig({ env: { ...REQUIRED, SVC_TIMEOUT: '2.5', SVC_MAX_RETRIES: '0' } });

    expect(sut.timeoutMs).toBe(2_500);
    expect(sut.maxRetries).toBe(0);
  });

  it.each([
    ['SVC_TIMEOUT', '0'],
    ['SVC_TIMEOUT', 'soon'],
    ['SVC_MAX_RETRIES', '-1'],
    ['SVC_MAX_RETRIES', '1.5'],
  ])('should name %s when its value %p is invalid', (variable, value) => {
    expect(errorOf(() => loadConfig({ env: { ...REQUIRED, [variable]: value } })).variable).toBe(
      variable,
    );
  });

  it('should refuse a prefix that cannot name a variable', () => {
    expect(errorOf(() => loadConfig({ prefix: 'A-B', env: REQUIRED })).variable).toBe('prefix');
  });
});

describe(resolveConfig.name, () => {
  it('should accept snake_case and camelCase options when given in code', () => {
    const snake = resolveConfig({ agent_id: 'a', client_secret: 's', base_url: 'http://h/' });
    const camel = resolveConfig({ agentId: 'a', clientSecret: 's', baseUrl: 'http://h' });

    expect(snake).toEqual(camel);
    expect(snake.baseUrl).toBe('http://h');
  });
});

describe(runtimeConfigFromEnv.name, () => {
  const FULL = {
    ...REQUIRED,
    SVC_BASE_URL: 'http://b/',
    SVC_TOKEN_URL: 'http://t',
    SVC_WEBHOOK_SECRET: 'w',
    SVC_TIMEOUT: '5',
    SVC_MAX_RETRIES: '9',
  };

  it.each(['SVC_AGENT_ID', 'SVC_CLIENT_SECRET', 'SVC_BASE_URL', 'SVC_TOKEN_URL'])(
    'should stay standalone when %s is missing',
    (variable) => {
      expect(
        runtimeConfigFromEnv({ env: { ...FULL, [variable]: undefined }, readWebhookSecret: true }),
      ).toBeUndefined();
    },
  );

  it('should always use 30 s and 3 retries and read the webhook secret only when asked', () => {
    const reading = runtimeConfigFromEnv({ env: FULL, readWebhookSecret: true });
    const notReading = runtimeConfigFromEnv({ env: FULL, readWebhookSecret: false });

    expect(reading).toMatchObject({ baseUrl: 'http://b', timeoutMs: 30_000, maxRetries: 3 });
    expect(reading?.webhookSecret).toBe('w');
    expect(notReading?.webhookSecret).toBeUndefined();
  });
});
