import { HttpProblem } from '@agp/http';

import { checkTargetConfig } from './target-configs';

const OPEN = { allowPrivate: true };
const CLOSED = { allowPrivate: false };

function fieldsOf(work: () => unknown): string[] {
  try {
    work();
  } catch (error) {
    return ((error as HttpProblem).errors ?? []).map((e) => e.field).sort();
  }
  throw new Error('expected a validation error');
}

describe('checkTargetConfig', () => {
  it('should split an e-mail config into what reads show and the sealed password', () => {
    const sut = checkTargetConfig(
      'EMAIL',
      {
        host: 'smtp.example.com',
        port: 587,
        from: 'a@example.com',
        to: ['b@example.com'],
        username: 'u',
        password: 'p',
      },
      CLOSED,
    );

    expect(sut).toEqual({
      config: {
        host: 'smtp.example.com',
        port: 587,
        from: 'a@example.com',
        to: ['b@example.com'],
        username: 'u',
      },
      secrets: { password: 'p' },
    });
  });

  it('should drop a password that comes without a user name', () => {
    const sut = checkTargetConfig(
      'EMAIL',
      {
        host: 'smtp.example.com',
        port: 25,
        from: 'a@example.com',
        to: ['b@example.com'],
        password: 'p',
      },
      CLOSED,
    );

    expect(sut.secrets).toEqual({});
  });

  it('should split the Slack bot token off and keep the webhook config whole', () => {
    expect(checkTargetConfig('SLACK', { botToken: 'xoxb-1', channel: 'C1' }, CLOSED)).toEqual({
      config: { channel: 'C1' },
      secrets: { botToken: 'xoxb-1' },
    });
    expect(checkTargetConfig('WEBHOOK', { url: 'https://h.example.com/x' }, CLOSED)).toEqual({
      config: { url: 'https://h.example.com/x' },
      secrets: {},
    });
  });

  it('should name every bad and unknown field under config', () => {
    expect(
      fieldsOf(() => checkTargetConfig('WEBHOOK', { url: 'ftp://x', other: 1 }, OPEN)),
    ).toEqual(['config.other', 'config.url']);
    expect(
      fieldsOf(() => checkTargetConfig('SLACK', { botToken: 'a\nb', channel: '' }, OPEN)),
    ).toEqual(['config.botToken', 'config.channel']);
  });

  it('should refuse private addresses unless the operator allows them, and metadata always', () => {
    const local = { url: 'http://127.0.0.1:8080/hook' };

    expect(fieldsOf(() => checkTargetConfig('WEBHOOK', local, CLOSED))).toEqual(['config.url']);
    expect(checkTargetConfig('WEBHOOK', local, OPEN).config).toEqual(local);
    expect(
      fieldsOf(() =>
        checkTargetConfig(
          'EMAIL',
          { host: '169.254.169.254', port: 25, from: 'a@example.com', to: ['b@example.com'] },
          OPEN,
        ),
      ),
    ).toEqual(['config.host']);
  });
});
