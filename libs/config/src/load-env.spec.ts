import { CoreEnv, apiAudience } from './core.env';
import { ConfigError, loadEnv } from './load-env';

describe(loadEnv.name, () => {
  it('should apply defaults when variables are unset', () => {
    const sut = loadEnv(CoreEnv, {});
    expect(sut.PORT).toBe(8080);
    expect(sut.LOG_LEVEL).toBe('info');
    expect(apiAudience(sut)).toBe('http://localhost:8080');
  });

  it('should convert and keep given values when they are valid', () => {
    const sut = loadEnv(CoreEnv, { PORT: '3001', AUTH_AUDIENCE: 'https://agp.example.com/' });
    expect(sut.PORT).toBe(3001);
    expect(apiAudience(sut)).toBe('https://agp.example.com');
  });

  it('should name every bad variable in one line when values are invalid', () => {
    const run = (): CoreEnv => loadEnv(CoreEnv, { PORT: 'eighty', NATS_URL: 'http://x' });
    expect(run).toThrow(ConfigError);
    try {
      run();
    } catch (error) {
      expect((error as ConfigError).variables.sort()).toEqual(['NATS_URL', 'PORT']);
      expect((error as Error).message).not.toContain('\n');
    }
  });
});
