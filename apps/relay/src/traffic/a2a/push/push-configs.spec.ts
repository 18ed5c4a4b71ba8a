import {
  REDACTED,
  callbackIdOf,
  callerAuthHeaders,
  mapAnswerConfigs,
  pushRequestOf,
  redacted,
  withConfigAt,
} from './push-configs';

const CALLBACK = 'http://agp.test/relay/a2a-push/0b9e1a4c-1d2f-4e5a-9b7c-1234567890ab';

describe('A2A push configurations (T40, T42)', () => {
  it('should find the configuration of a 0.3 set, a 1.0 create and a message of either protocol', () => {
    const legacy = pushRequestOf({
      jsonrpc: '2.0',
      id: 1,
      method: 'tasks/pushNotificationConfig/set',
      params: { taskId: 't1', pushNotificationConfig: { url: 'https://a.example/p', token: 'x' } },
    });
    const current = pushRequestOf({
      jsonrpc: '2.0',
      id: 2,
      method: 'CreateTaskPushNotificationConfig',
      params: { taskId: 't2', id: 'c2', url: 'https://a.example/q' },
    });
    const message = pushRequestOf({
      jsonrpc: '2.0',
      id: 3,
      method: 'SendMessage',
      params: {
        message: { taskId: 't3', parts: [] },
        configuration: { taskPushNotificationConfig: { url: 'https://a.example/r' } },
      },
    });
    const plain = pushRequestOf({ jsonrpc: '2.0', id: 4, method: 'message/send', params: {} });

    expect(legacy).toEqual({
      operation: 'set',
      config: {
        path: ['pushNotificationConfig'],
        value: { url: 'https://a.example/p', token: 'x', taskId: 't1' },
      },
    });
    expect(current).toEqual({
      operation: 'set',
      config: { path: [], value: { url: 'https://a.example/q', id: 'c2', taskId: 't2' } },
    });
    expect(message).toMatchObject({
      operation: 'send',
      config: { path: ['configuration', 'taskPushNotificationConfig'], value: { taskId: 't3' } },
    });
    expect(plain).toBeUndefined();
  });

  it('should refuse a configuration without a URL or with a token that is not a string (D12)', () => {
    const noUrl = pushRequestOf({
      jsonrpc: '2.0',
      id: 1,
      method: 'tasks/pushNotificationConfig/set',
      params: { taskId: 't', pushNotificationConfig: { token: 'x' } },
    });
    const badToken = pushRequestOf({
      jsonrpc: '2.0',
      id: 1,
      method: 'CreateTaskPushNotificationConfig',
      params: { taskId: 't', url: 'https://a.example', token: 7 },
    });

    expect(noUrl).toEqual({
      invalid: expect.stringContaining('params.pushNotificationConfig.url'),
    });
    expect(badToken).toEqual({ invalid: expect.stringContaining('params.token') });
  });

  it('should read the task and configuration a get or delete names in both protocols', () => {
    const legacy = pushRequestOf({
      jsonrpc: '2.0',
      id: 1,
      method: 'tasks/pushNotificationConfig/delete',
      params: { id: 't1', pushNotificationConfigId: 'c1' },
    });
    const current = pushRequestOf({
      jsonrpc: '2.0',
      id: 1,
      method: 'GetTaskPushNotificationConfig',
      params: { taskId: 't2', id: 'c2' },
    });

    expect(legacy).toEqual({ operation: 'delete', named: { taskId: 't1', configId: 'c1' } });
    expect(current).toEqual({ operation: 'get', named: { taskId: 't2', configId: 'c2' } });
  });

  it('should redact the credentials and rewrite a configuration where it sits', () => {
    const request = {
      jsonrpc: '2.0' as const,
      id: 1,
      method: 'tasks/pushNotificationConfig/set',
      params: {
        taskId: 't',
        pushNotificationConfig: {
          url: 'https://a.example',
          token: 'secret',
          authentication: { schemes: ['Bearer'], credentials: 'c' },
        },
      },
    };

    const sut = withConfigAt(request, ['pushNotificationConfig'], redacted);

    expect(sut.params).toEqual({
      taskId: 't',
      pushNotificationConfig: {
        url: 'https://a.example',
        token: REDACTED,
        authentication: { schemes: ['Bearer'], credentials: REDACTED },
      },
    });
    expect(request.params.pushNotificationConfig.token).toBe('secret');
  });

  it('should visit every configuration of a 0.3 list and a 1.0 list in answer order', () => {
    const seen: string[] = [];
    const visit = (config: Record<string, unknown>, index: number) => {
      seen.push(`${index}:${String(config.url)}`);
      return { ...config, url: 'mine' };
    };

    const legacy = mapAnswerConfigs(
      'list',
      {
        jsonrpc: '2.0',
        id: 1,
        result: [
          { taskId: 't', pushNotificationConfig: { url: 'a' } },
          { taskId: 't', pushNotificationConfig: { url: 'b' } },
        ],
      },
      visit,
    );
    const current = mapAnswerConfigs(
      'list',
      { jsonrpc: '2.0', id: 1, result: { configs: [{ taskId: 't', url: 'c' }] } },
      visit,
    );

    expect(seen).toEqual(['0:a', '1:b', '0:c']);
    expect(legacy.result).toEqual([
      { taskId: 't', pushNotificationConfig: { url: 'mine' } },
      { taskId: 't', pushNotificationConfig: { url: 'mine' } },
    ]);
    expect(current.result).toEqual({ configs: [{ taskId: 't', url: 'mine' }] });
  });

  it('should know only its own callback URLs', () => {
    expect(callbackIdOf(CALLBACK)).toBe('0b9e1a4c-1d2f-4e5a-9b7c-1234567890ab');
    expect(callbackIdOf(`${CALLBACK}/x`)).toBeUndefined();
    expect(callbackIdOf('https://a.example/p')).toBeUndefined();
  });

  it('should send the caller authentication as Authorization, else its token as A2A names it', () => {
    expect(
      callerAuthHeaders({ token: 't', authentication: { schemes: ['Bearer'], credentials: 'c' } }),
    ).toEqual({ authorization: 'Bearer c' });
    expect(callerAuthHeaders({ authentication: { scheme: 'Basic', credentials: 'u' } })).toEqual({
      authorization: 'Basic u',
    });
    expect(callerAuthHeaders({ token: 't' })).toEqual({ 'x-a2a-notification-token': 't' });
    expect(callerAuthHeaders({})).toEqual({});
  });
});
