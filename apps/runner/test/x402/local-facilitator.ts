import { createHash } from 'node:crypto';
import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import { AddressInfo } from 'node:net';

type Json = Record<string, unknown>;

/** EIP-3009 `TransferWithAuthorization`, what x402's exact scheme on EVM signs. */
const TRANSFER_WITH_AUTHORIZATION = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const;

/** The CAIP-2 networks this facilitator serves, by chain id. */
const CHAIN_IDS: Record<string, number> = { 'eip155:84532': 84532 };

/**
 * A facilitator speaking x402's HTTP API (`POST /verify`, `POST /settle`, `GET /supported`, as
 * `HTTPFacilitatorClient` calls it) without a chain: it checks the EIP-3009 authorisation and its
 * signature locally, settles each nonce once, and answers a deterministic transaction id.
 */
export class LocalFacilitator {
  readonly verified: Json[] = [];
  readonly settled: Json[] = [];
  private readonly usedNonces = new Set<string>();
  private server?: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const send = (status: number, body: unknown): void => {
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (request.method === 'GET' && request.url === '/supported') {
      send(200, {
        kinds: Object.keys(CHAIN_IDS).map((network) => ({
          x402Version: 2,
          scheme: 'exact',
          network,
        })),
        extensions: [],
        signers: {},
      });
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of request) {
      chunks.push(chunk as Buffer);
    }
    let body: Json;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json;
    } catch {
      send(400, { error: 'not JSON' });
      return;
    }
    const payload = body.paymentPayload as Json;
    const requirements = body.paymentRequirements as Json;
    if (request.method === 'POST' && request.url === '/verify') {
      const verdict = await this.verify(payload, requirements);
      this.verified.push(verdict);
      send(200, verdict);
      return;
    }
    if (request.method === 'POST' && request.url === '/settle') {
      const verdict = await this.verify(payload, requirements);
      const network = typeof requirements?.network === 'string' ? requirements.network : '';
      if (!verdict.isValid) {
        send(200, { success: false, errorReason: verdict.invalidReason, transaction: '', network });
        return;
      }
      const nonce = String(
        (payload.payload as Json).authorization &&
          ((payload.payload as Json).authorization as Json).nonce,
      );
      this.usedNonces.add(nonce);
      const transaction = `0x${createHash('sha256').update(nonce).digest('hex')}`;
      const settled = { success: true, transaction, network, payer: verdict.payer };
      this.settled.push({ ...settled, amount: requirements.amount, payTo: requirements.payTo });
      send(200, settled);
      return;
    }
    send(404, { error: 'not found' });
  }

  /** The exact scheme's checks, as the protocol's facilitator makes them, minus the chain's. */
  private async verify(payload: Json, requirements: Json): Promise<Json> {
    const invalid = (invalidReason: string): Json => ({ isValid: false, invalidReason });
    const accepted = payload?.accepted as Json | undefined;
    const inner = payload?.payload as Json | undefined;
    const authorization = inner?.authorization as Record<string, string> | undefined;
    if (!accepted || !authorization || typeof inner?.signature !== 'string') {
      return invalid('invalid_payload');
    }
    const chainId = CHAIN_IDS[String(requirements.network)];
    if (!chainId || requirements.scheme !== 'exact') {
      return invalid('unsupported_scheme');
    }
    for (const key of ['scheme', 'network', 'asset', 'payTo', 'amount']) {
      if (String(accepted[key]).toLowerCase() !== String(requirements[key]).toLowerCase()) {
        return invalid(`accepted_${key}_mismatch`);
      }
    }
    if (authorization.to.toLowerCase() !== String(requirements.payTo).toLowerCase()) {
      return invalid('invalid_exact_evm_payload_recipient_mismatch');
    }
    if (BigInt(authorization.value) !== BigInt(String(requirements.amount))) {
      return invalid('invalid_exact_evm_payload_authorization_value');
    }
    const now = BigInt(Math.floor(Date.now() / 1000));
    if (BigInt(authorization.validBefore) <= now || BigInt(authorization.validAfter) > now) {
      return invalid('invalid_exact_evm_payload_authorization_valid_before');
    }
    if (this.usedNonces.has(authorization.nonce)) {
      return invalid('invalid_exact_evm_payload_authorization_nonce_used');
    }
    // viem's types are ESM only; its CommonJS build is what runs here.
    const { getAddress, verifyTypedData } = await import('viem');
    const extra = (requirements.extra ?? {}) as Record<string, string>;
    const isSigned = await verifyTypedData({
      address: getAddress(authorization.from),
      domain: {
        name: extra.name,
        version: extra.version,
        chainId,
        verifyingContract: getAddress(String(requirements.asset)),
      },
      types: TRANSFER_WITH_AUTHORIZATION,
      primaryType: 'TransferWithAuthorization',
      message: {
        from: getAddress(authorization.from),
        to: getAddress(authorization.to),
        value: BigInt(authorization.value),
        validAfter: BigInt(authorization.validAfter),
        validBefore: BigInt(authorization.validBefore),
        nonce: authorization.nonce as `0x${string}`,
      },
      signature: inner.signature as `0x${string}`,
    });
    if (!isSigned) {
      return invalid('invalid_exact_evm_payload_signature');
    }
    return { isValid: true, payer: getAddress(authorization.from) };
  }
}
