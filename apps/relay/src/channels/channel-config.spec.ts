import { ChannelConfigError, prepareConfig, readableConfig } from './channel-config';

describe('channel settings per kind (D56, channels.md CH1)', () => {
  it('should split a SLACK config into its API base and its two secrets, keeping a secret not given again', () => {
    const first = prepareConfig('SLACK', {
      signingSecret: 's1',
      botToken: 'xoxb-1',
      apiBaseUrl: 'https://slack.example/api/',
    });
    const changed = prepareConfig('SLACK', { botToken: 'xoxb-2' }, first.secrets);

    expect(first).toEqual({
      settings: { apiBaseUrl: 'https://slack.example/api' },
      secrets: { signingSecret: 's1', botToken: 'xoxb-1' },
      answeredOnce: {},
    });
    expect(changed.secrets).toEqual({ signingSecret: 's1', botToken: 'xoxb-2' });
  });

  it('should make a whsec_ secret for a WEBHOOK and a key for a WEB channel once, answered only then', () => {
    const webhook = prepareConfig('WEBHOOK', { url: 'https://hooks.example/in' });
    const web = prepareConfig('WEB', { allowedOrigins: ['https://shop.example'] });
    const webAgain = prepareConfig('WEB', { allowedOrigins: [] }, web.secrets);

    expect(webhook.secrets.signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(webhook.answeredOnce).toEqual(webhook.secrets);
    expect(web.secrets.channelKey).toMatch(/^agpck_/);
    expect(webAgain).toEqual({
      settings: { allowedOrigins: [] },
      secrets: web.secrets,
      answeredOnce: {},
    });
  });

  it('should refuse unknown settings, a bad origin, a bad URL and settings on a kind without an adapter', () => {
    const fieldOf = (work: () => unknown): string | undefined => {
      try {
        work();
      } catch (error) {
        return error instanceof ChannelConfigError ? error.field : 'not a config error';
      }
      return undefined;
    };

    expect(fieldOf(() => prepareConfig('SLACK', { token: 'x' }))).toBe('config.token');
    expect(
      fieldOf(() => prepareConfig('WEB', { allowedOrigins: ['https://shop.example/page'] })),
    ).toBe('config.allowedOrigins');
    expect(fieldOf(() => prepareConfig('WEBHOOK', { url: 'ftp://hooks.example' }))).toBe(
      'config.url',
    );
    expect(fieldOf(() => prepareConfig('TEAMS', { url: 'https://x.example' }))).toBe('config.url');
    expect(fieldOf(() => prepareConfig('TEAMS', undefined))).toBeUndefined();
  });

  it('should read secrets back masked', () => {
    expect(readableConfig({ url: 'https://hooks.example/in' }, ['signingSecret'])).toEqual({
      url: 'https://hooks.example/in',
      signingSecret: '********',
    });
  });

  it('should keep the disclosure overrides of every kind with an adapter and refuse bad ones (CH14)', () => {
    const slack = prepareConfig('SLACK', {
      signingSecret: 's',
      botToken: 'xoxb',
      aiDisclosure: 'EVERY_MESSAGE',
      aiDisclosureText: 'An AI answers here.',
      contentMarking: 'OFF',
    });
    const web = prepareConfig('WEB', { allowedOrigins: [], aiDisclosure: 'OFF' });
    const refused = (config: Record<string, unknown>): string | undefined => {
      try {
        prepareConfig('WEBHOOK', { url: 'https://hooks.example', ...config });
      } catch (error) {
        return error instanceof ChannelConfigError ? error.field : 'not a config error';
      }
      return undefined;
    };

    expect(slack.settings).toEqual({
      aiDisclosure: 'EVERY_MESSAGE',
      aiDisclosureText: 'An AI answers here.',
      contentMarking: 'OFF',
    });
    expect(web.settings).toEqual({ allowedOrigins: [], aiDisclosure: 'OFF' });
    expect(refused({ aiDisclosure: 'ALWAYS' })).toBe('config.aiDisclosure');
    expect(refused({ contentMarking: true })).toBe('config.contentMarking');
    expect(refused({ aiDisclosureText: 'x'.repeat(501) })).toBe('config.aiDisclosureText');
    expect(refused({ aiDisclosureText: '' })).toBe('config.aiDisclosureText');
  });
});
