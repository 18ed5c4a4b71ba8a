import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import headers from '../security-headers.json';

// The console's nginx image (docker/console/nginx.conf) must send what the embedded server does.
const NGINX_CONF = readFileSync(
  join(__dirname, '..', '..', '..', 'docker', 'console', 'nginx.conf'),
  'utf8',
);

describe('security-headers.json', () => {
  it('should allow scripts from the console itself only, never inline', () => {
    const csp = headers['Content-Security-Policy'];
    const scriptSrc = csp.split(';').find((d) => d.trim().startsWith('script-src'));

    expect(scriptSrc?.trim()).toBe("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
  });

  it.each(Object.entries(headers))(
    'should be sent by the nginx image, word for word, when it is %s',
    (name, value) => {
      const sent = NGINX_CONF.split('\n').filter((line) =>
        line.trim().startsWith(`add_header ${name} `),
      );

      expect(sent.length).toBeGreaterThan(0);
      for (const line of sent) {
        expect(line.trim()).toBe(`add_header ${name} "${value}" always;`);
      }
    },
  );
});
