import { createHash, createHmac } from 'node:crypto';
import { jsonText } from '../values/json';
import { RegoObject, Value } from '../values/value';
import { BuiltinError, BuiltinDef } from './types';
import { def, isNum, num, obj } from './helpers';

// providers.aws.sign_req: AWS Signature Version 4 as OPA's internal/providers/aws/signing_v4.go
// computes it, with the operand checks of OPA's v1/topdown/providers.go.

const IGNORED = new Set(['authorization', 'user-agent', 'x-amzn-trace-id']);

function typeError(msg: string): BuiltinError {
  return new BuiltinError('eval_type_error', msg);
}

function goSet(names: string[]): string {
  return `{${names.map((n) => JSON.stringify(n)).join(', ')}}`;
}

/** Required string members: lists every one missing, then every one of another type. */
function requireStrings(o: RegoObject, names: string[], pos: number, what: string): void {
  const missing = names.filter((n) => o.get(n) === undefined);
  if (missing.length > 0) {
    throw typeError(`operand ${pos} missing required ${what} parameters(s): ${goSet(missing)}`);
  }
  const invalid = names.filter((n) => typeof o.get(n) !== 'string');
  if (invalid.length > 0) {
    throw typeError(
      `operand ${pos} invalid values for required ${what} parameters(s): ${goSet(invalid)}`,
    );
  }
}

const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, msg: string): Buffer =>
  createHmac('sha256', key).update(msg).digest();

/** Go's `URL.EscapedPath`: empty for `http://host`, where WHATWG URLs say `/`. */
function escapedPath(text: string, url: URL): string {
  return url.pathname === '/' && !/^[a-z][a-z0-9+.-]*:\/\/[^/]*\//i.test(text) ? '' : url.pathname;
}

function signRequest(reqV: Value, cfgV: Value, timeV: Value): Value {
  const req = obj(reqV, 1);
  const cfg = obj(cfgV, 2);
  requireStrings(req, ['method', 'url'], 1, 'request');
  requireStrings(
    cfg,
    ['aws_access_key', 'aws_region', 'aws_secret_access_key', 'aws_service'],
    2,
    'AWS config',
  );
  const unsignedFlag = cfg.get('disable_payload_signing');
  if (unsignedFlag !== undefined && typeof unsignedFlag !== 'boolean') {
    throw typeError(`operand 2 invalid value for 'disable_payload_signing' in AWS config`);
  }
  if (!isNum(timeV)) {
    throw typeError('operand 3 must be a number');
  }
  const t = num(timeV, 3);
  const ns = typeof t === 'bigint' ? t : BigInt(Math.trunc(t));
  if (ns < 0n) {
    throw typeError('operand 3 could not convert time_ns value into a unix timestamp');
  }
  const when = new Date(Number(ns / 1_000_000n));
  const iso = when
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');
  const date = iso.slice(0, 8);

  const method = req.get('method') as string;
  const url = new URL(req.get('url') as string);
  const raw = req.get('raw_body');
  const body = req.get('body');
  const payload =
    typeof raw === 'string' ? raw : body !== undefined && body !== null ? jsonText(body) : '';
  const contentSha = unsignedFlag === true ? 'UNSIGNED-PAYLOAD' : sha256(payload);

  const service = cfg.get('aws_service') as string;
  const region = cfg.get('aws_region') as string;
  const token = cfg.get('aws_session_token');
  const awsHeaders: [string, string][] = [
    ['host', url.host],
    ['x-amz-date', iso],
  ];
  if (service === 's3' || service === 'glacier') {
    awsHeaders.push(['x-amz-content-sha256', contentSha]);
  }
  if (typeof token === 'string' && token !== '') {
    awsHeaders.push(['x-amz-security-token', token]);
  }
  const toSign = new Map<string, string>(awsHeaders);
  const given = req.get('headers');
  const headers = given instanceof RegoObject ? given : new RegoObject();
  for (const [k, v] of headers.entries()) {
    const name = (typeof k === 'string' ? k : jsonText(k)).toLowerCase();
    if (!IGNORED.has(name)) {
      // The request's own headers are signed as given, even one the signer also sets.
      toSign.set(name, typeof v === 'string' ? v : jsonText(v));
    }
  }
  const names = [...toSign.keys()].sort();
  const canonical = [
    method,
    escapedPath(req.get('url') as string, url),
    url.search.replace(/^\?/, ''),
    ...names.map((n) => `${n}:${toSign.get(n)}`),
    '',
    names.join(';'),
    contentSha,
  ].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', iso, scope, sha256(canonical)].join('\n');
  let key = hmac('AWS4' + (cfg.get('aws_secret_access_key') as string), date);
  key = hmac(key, region);
  key = hmac(key, service);
  key = hmac(key, 'aws4_request');
  const signature = hmac(key, stringToSign).toString('hex');

  const outHeaders = new RegoObject();
  for (const [k, v] of headers.entries()) {
    outHeaders.set(k, v);
  }
  for (const [k, v] of awsHeaders) {
    outHeaders.set(k, v);
  }
  outHeaders.set(
    'Authorization',
    `AWS4-HMAC-SHA256 Credential=${cfg.get('aws_access_key') as string}/${scope},SignedHeaders=${names.join(';')},Signature=${signature}`,
  );
  const out = new RegoObject();
  for (const [k, v] of req.entries()) {
    out.set(k, v);
  }
  out.set('headers', outHeaders);
  return out;
}

export const AWS_BUILTINS: BuiltinDef[] = [
  def('providers.aws.sign_req', 3, ([r, c, t]) => signRequest(r, c, t)),
];
