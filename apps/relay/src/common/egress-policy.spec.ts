import { checkEgressAddress, checkEgressHost, checkEgressUrl } from './egress-policy';

const strict = { allowPrivate: false };
const lenient = { allowPrivate: true };

describe(checkEgressUrl.name, () => {
  it.each([
    'https://tools.acme.example/mcp',
    'http://tools.acme.example:8080/mcp?x=1',
    'https://93.184.216.34/mcp',
    'https://[2606:2800:220:1:248:1893:25c8:1946]/mcp',
  ])('should allow %s when it is a public address or a name', (url) => {
    expect(checkEgressUrl(url, strict)).toBeNull();
  });

  it.each([
    ['ftp://tools.acme.example/', /scheme ftp/],
    ['file:///etc/passwd', /scheme file/],
    ['javascript:alert(1)', /scheme javascript/],
    ['http://user:secret@tools.acme.example/', /user info/],
    ['http://user@tools.acme.example/', /user info/],
    ['not a url', /not a valid URL/],
  ])('should refuse %s whatever the operator allows', (url, reason) => {
    expect(checkEgressUrl(url, lenient)).toMatch(reason);
  });

  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00:ec2::254]/',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://METADATA.Google.Internal./computeMetadata/v1/',
    'http://[::ffff:169.254.169.254]/',
    'http://[64:ff9b::a9fe:a9fe]/',
    'http://2852039166/',
  ])('should refuse the metadata address %s even when private ranges are allowed', (url) => {
    expect(checkEgressUrl(url, lenient)).toMatch(/metadata/);
  });

  it.each(['http://169.254.10.1/', 'http://[fe80::1]/', 'http://[febf::1]/'])(
    'should refuse the link-local %s even when private ranges are allowed',
    (url) => {
      expect(checkEgressUrl(url, lenient)).toMatch(/link-local/);
    },
  );

  it.each([
    'http://10.0.0.5/',
    'http://172.16.0.1/',
    'http://172.31.255.255/',
    'http://192.168.1.10:8080/mcp',
    'http://127.0.0.1:3000/mcp',
    'http://127.8.9.10/',
    'http://0x7f.1/',
    'http://2130706433/',
    'http://0.0.0.0/',
    'http://[::1]/',
    'http://[::]/',
    'http://[fc00::1]/',
    'http://[fdff:ffff::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:10.1.2.3]/',
    'http://localhost:3000/mcp',
    'http://LOCALHOST./',
    'http://tools.localhost/',
  ])('should refuse the private %s unless the operator allows private ranges', (url) => {
    expect(checkEgressUrl(url, strict)).toMatch(/EGRESS_ALLOW_PRIVATE/);
    expect(checkEgressUrl(url, lenient)).toBeNull();
  });

  it.each([
    'http://172.15.255.255/',
    'http://172.32.0.1/',
    'http://11.0.0.1/',
    'http://[fe00::1]/',
  ])('should allow %s when it is just outside a refused range', (url) => {
    expect(checkEgressUrl(url, strict)).toBeNull();
  });
});

describe(checkEgressAddress.name, () => {
  it('should judge resolved addresses when the traffic code connects', () => {
    expect(checkEgressAddress('10.1.2.3', strict)).toMatch(/private/);
    expect(checkEgressAddress('10.1.2.3', lenient)).toBeNull();
    expect(checkEgressAddress('169.254.169.254', lenient)).toMatch(/metadata/);
    expect(checkEgressAddress('fe80::1%eth0', lenient)).toMatch(/link-local/);
    expect(checkEgressAddress('::ffff:7f00:1', strict)).toMatch(/loopback/);
    expect(checkEgressAddress('8.8.8.8', strict)).toBeNull();
    expect(checkEgressAddress('2001:4860:4860::8888', strict)).toBeNull();
  });

  it('should refuse a value when it is not an address', () => {
    expect(checkEgressAddress('tools.acme.example', lenient)).toMatch(/not an IP address/);
  });
});

describe(checkEgressHost.name, () => {
  it('should accept a bracketed IPv6 host when it comes from a URL', () => {
    expect(checkEgressHost('[::1]', strict)).toMatch(/loopback/);
    expect(checkEgressHost('[2001:db8::1]', strict)).toBeNull();
  });
});
