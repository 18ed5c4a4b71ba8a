import { isIP } from 'node:net';

/** D37: whether the operator lets the relay reach private ranges (`EGRESS_ALLOW_PRIVATE`). */
export interface EgressOptions {
  allowPrivate: boolean;
}

type Range = readonly [network: bigint, prefixBits: number, what: string];

const v4 = (text: string): bigint =>
  text.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);

/** Cloud metadata endpoints: always refused (D37), named first so the reason says so. */
const METADATA_HOSTS = new Set(['metadata.google.internal']);
const METADATA_V4: readonly bigint[] = [v4('169.254.169.254')];
const METADATA_V6: readonly bigint[] = [v6('fd00:ec2::254')];

const LINK_LOCAL_V4: readonly Range[] = [[v4('169.254.0.0'), 16, 'link-local']];
const LINK_LOCAL_V6: readonly Range[] = [[v6('fe80::'), 10, 'link-local']];

const PRIVATE_V4: readonly Range[] = [
  [v4('10.0.0.0'), 8, 'private'],
  [v4('172.16.0.0'), 12, 'private'],
  [v4('192.168.0.0'), 16, 'private'],
  [v4('127.0.0.0'), 8, 'loopback'],
  // "This host": a connection to 0.0.0.0 reaches the relay's own machine.
  [v4('0.0.0.0'), 8, 'this-host'],
];
const PRIVATE_V6: readonly Range[] = [
  [v6('::1'), 128, 'loopback'],
  [v6('::'), 128, 'unspecified'],
  [v6('fc00::'), 7, 'unique-local'],
];

/** IPv6 forms that carry an IPv4 address in their last 32 bits, judged as that address. */
const EMBEDDING_V4: readonly Range[] = [
  [v6('::ffff:0:0'), 96, 'IPv4-mapped'],
  [v6('64:ff9b::'), 96, 'NAT64'],
];

/**
 * D37: `null` when the relay may call the URL, else the reason. Link-local and metadata always
 * refused, private ranges unless `allowPrivate`; resolved addresses: {@link checkEgressAddress}.
 */
export function checkEgressUrl(url: string, options: EgressOptions): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'not a valid URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return `the scheme ${parsed.protocol.replace(/:$/, '')} is not allowed: only http and https`;
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return 'user info in the URL is not allowed: give the credential separately';
  }
  return checkEgressHost(parsed.hostname, options);
}

/** A URL's host (name or address literal, IPv6 with or without brackets). */
export function checkEgressHost(host: string, options: EgressOptions): string | null {
  const name = host
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
  if (METADATA_HOSTS.has(name)) {
    return `${name} is a cloud metadata address, never allowed`;
  }
  if (isIP(name.replace(/%.*$/, '')) !== 0) {
    return checkEgressAddress(name, options);
  }
  if (name === 'localhost' || name.endsWith('.localhost')) {
    return options.allowPrivate ? null : privateRefusal(name, 'loopback');
  }
  return null;
}

/** An IP address (as DNS resolution gives it) the relay is about to connect to. */
export function checkEgressAddress(address: string, options: EgressOptions): string | null {
  const plain = address.replace(/%.*$/, '');
  const family = isIP(plain);
  if (family === 4) {
    return checkV4(plain, v4(plain), options);
  }
  if (family !== 6) {
    return `${address} is not an IP address`;
  }
  const value = v6(plain);
  const embedding = EMBEDDING_V4.find((r) => inRange(value, r));
  if (embedding) {
    const inner = value & 0xffffffffn;
    return checkV4(address, inner, options);
  }
  if (METADATA_V6.includes(value)) {
    return `${address} is a cloud metadata address, never allowed`;
  }
  const linkLocal = LINK_LOCAL_V6.find((r) => inRange(value, r));
  if (linkLocal) {
    return `${address} is a link-local address, never allowed`;
  }
  const range = PRIVATE_V6.find((r) => inRange(value, r));
  return range && !options.allowPrivate ? privateRefusal(address, range[2]) : null;
}

function checkV4(shown: string, value: bigint, options: EgressOptions): string | null {
  if (METADATA_V4.includes(value)) {
    return `${shown} is a cloud metadata address, never allowed`;
  }
  if (LINK_LOCAL_V4.some((r) => inRange(value, r, 32))) {
    return `${shown} is a link-local address, never allowed`;
  }
  const range = PRIVATE_V4.find((r) => inRange(value, r, 32));
  return range && !options.allowPrivate ? privateRefusal(shown, range[2]) : null;
}

function privateRefusal(shown: string, what: string): string {
  return `${shown} is a ${what} address, allowed only when the operator sets EGRESS_ALLOW_PRIVATE`;
}

function inRange(value: bigint, [network, bits]: Range, width = 128): boolean {
  const shift = BigInt(width - bits);
  return value >> shift === network >> shift;
}

/** An IPv6 address as a 128-bit number (`::` compression and a trailing dotted quad allowed). */
function v6(text: string): bigint {
  let body = text;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(body);
  if (dotted) {
    const n = Number(v4(dotted[1]));
    body = `${body.slice(0, -dotted[1].length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = body.split('::') as [string, string | undefined];
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups =
    tail === undefined
      ? headGroups
      : [...headGroups, ...Array<string>(missing).fill('0'), ...tailGroups];
  return groups.reduce((acc, group) => (acc << 16n) | BigInt(parseInt(group || '0', 16)), 0n);
}
