import { LookupAddress, lookup } from 'node:dns';
import { BlockList, isIP } from 'node:net';

import { Agent, request } from 'undici';

import { ClientMetadata, metadataProblem } from './client-metadata';

/** Addresses a fetched document may never come from, unless the operator allows private ones. */
const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 3],
] as const) {
  PRIVATE.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(net, bits, 'ipv6');
}
/** Link-local (cloud metadata lives there): refused even when private addresses are allowed. */
const ALWAYS = new BlockList();
ALWAYS.addSubnet('169.254.0.0', 16, 'ipv4');
ALWAYS.addSubnet('fe80::', 10, 'ipv6');

const MAX_BYTES = 5_120;
const TIMEOUT_MS = 5_000;

export class MetadataDocumentError extends Error {}

export interface FetchedDocument {
  metadata: ClientMetadata;
  /** How long the document may be reused: its Cache-Control max-age, within 5 min … 24 h. */
  maxAgeSec: number;
}

function isRefused(address: string, allowPrivate: boolean): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  const [ip, family] = mapped
    ? [mapped, 'ipv4' as const]
    : [address, isIP(address) === 6 ? ('ipv6' as const) : ('ipv4' as const)];
  return ALWAYS.check(ip, family) || (!allowPrivate && PRIVATE.check(ip, family));
}

/** identity.md I24 (draft-ietf-oauth-client-id-metadata-document). */
export class MetadataDocumentFetcher {
  private readonly dispatcher: Agent;

  constructor(private readonly allowPrivate: boolean) {
    this.dispatcher = new Agent({
      connect: {
        timeout: TIMEOUT_MS,
        lookup: (hostname, options, callback) => {
          lookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
            if (error) {
              callback(error, []);
              return;
            }
            if (addresses.some((a) => isRefused(a.address, this.allowPrivate))) {
              callback(new MetadataDocumentError(`${hostname} resolves to a refused address`), []);
              return;
            }
            if (options.all) {
              callback(null, addresses);
            } else {
              callback(null, addresses[0].address, addresses[0].family);
            }
          });
        },
      },
    });
  }

  /** Whether `clientId` has the shape of a metadata document URL this server would fetch. */
  isDocumentUrl(clientId: string): boolean {
    let url: URL;
    try {
      url = new URL(clientId);
    } catch {
      return false;
    }
    const isSecure = url.protocol === 'https:' || (this.allowPrivate && url.protocol === 'http:');
    return (
      isSecure &&
      url.pathname.length > 1 &&
      !url.hash &&
      !url.username &&
      !url.password &&
      !/\/\.\.?(\/|$|[?#])/.test(clientId) &&
      clientId.length <= 500
    );
  }

  async fetch(url: string): Promise<FetchedDocument> {
    const answer = await request(url, {
      dispatcher: this.dispatcher,
      headers: { accept: 'application/json' },
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    }).catch((error: unknown) => {
      throw new MetadataDocumentError(
        `the client metadata document could not be fetched: ${error instanceof Error ? error.message : 'failed'}`,
      );
    });
    if (answer.statusCode !== 200) {
      await answer.body.dump();
      throw new MetadataDocumentError(`the client metadata document answered ${answer.statusCode}`);
    }
    const text = await readLimited(answer.body);
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch {
      throw new MetadataDocumentError('the client metadata document is not JSON');
    }
    const problem = metadataProblem(document);
    if (problem) {
      throw new MetadataDocumentError(problem.description);
    }
    const metadata = document as ClientMetadata;
    if (metadata.client_id !== url) {
      throw new MetadataDocumentError('the document client_id must be the URL it was fetched from');
    }
    if ('client_secret' in metadata || 'client_secret_expires_at' in metadata) {
      throw new MetadataDocumentError('a client metadata document must not hold a client_secret');
    }
    return { metadata, maxAgeSec: maxAgeOf(answer.headers['cache-control']) };
  }
}

async function readLimited(body: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > MAX_BYTES) {
      throw new MetadataDocumentError(`the client metadata document is over ${MAX_BYTES} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function maxAgeOf(cacheControl: string | string[] | undefined): number {
  const text = Array.isArray(cacheControl) ? cacheControl.join(',') : (cacheControl ?? '');
  const match = /max-age=(\d+)/i.exec(text);
  const seconds = match ? Number(match[1]) : 3_600;
  return Math.min(Math.max(seconds, 300), 86_400);
}
