import { HttpProblem } from '@agp/http';

import { normalizedOrigin, refuseForeignOrigin } from './mcp-origin';

describe(refuseForeignOrigin.name, () => {
  const allowed = ['https://console.acme.example'];

  it('should pass a request without Origin when it comes from no browser', () => {
    expect(() => refuseForeignOrigin({}, allowed)).not.toThrow();
  });

  it('should pass an allowed origin when it differs only in case and default port', () => {
    expect(() =>
      refuseForeignOrigin({ origin: 'https://CONSOLE.acme.example:443' }, allowed),
    ).not.toThrow();
  });

  it.each(['https://evil.example', 'http://console.acme.example', 'null', 'not a url'])(
    'should refuse 403 when the origin is %s',
    (origin) => {
      let thrown: unknown;
      try {
        refuseForeignOrigin({ origin }, allowed);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(HttpProblem);
      expect((thrown as HttpProblem).status).toBe(403);
    },
  );
});

describe(normalizedOrigin.name, () => {
  it('should give no origin when the scheme is not http or https', () => {
    expect(normalizedOrigin('file:///etc/passwd')).toBeUndefined();
  });
});
