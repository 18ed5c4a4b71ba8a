import { X509Certificate, createPrivateKey, createPublicKey } from 'node:crypto';
import { fromJson } from '../values/json';
import { Value } from '../values/value';
import { builtinErr, def, str } from './helpers';
import { BuiltinDef } from './types';

// crypto.x509.* and crypto.parse_private_keys as OPA's v1/topdown/crypto.go defines them.

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** A DER element: tag, and where its contents are. */
interface Der {
  tag: number;
  start: number;
  end: number;
  next: number;
}

function derAt(buf: Buffer, at: number): Der {
  if (at + 2 > buf.length) {
    throw new Error('asn1: truncated');
  }
  const tag = buf[at];
  let len = buf[at + 1];
  let start = at + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4 || start + n > buf.length) {
      throw new Error('asn1: bad length');
    }
    len = 0;
    for (let i = 0; i < n; i++) {
      len = len * 256 + buf[start + i];
    }
    start += n;
  }
  if (start + len > buf.length) {
    throw new Error('asn1: truncated');
  }
  return { tag, start, end: start + len, next: start + len };
}

function children(buf: Buffer, el: Der): Der[] {
  const out: Der[] = [];
  for (let at = el.start; at < el.end;) {
    const c = derAt(buf, at);
    out.push(c);
    at = c.next;
  }
  return out;
}

function oid(buf: Buffer, el: Der): number[] {
  const bytes = buf.subarray(el.start, el.end);
  const out = [Math.floor(bytes[0] / 40), bytes[0] % 40];
  let v = 0;
  for (const b of bytes.subarray(1)) {
    v = v * 128 + (b & 0x7f);
    if (!(b & 0x80)) {
      out.push(v);
      v = 0;
    }
  }
  return out;
}

const NAME_FIELDS: Record<string, string> = {
  '2.5.4.6': 'Country',
  '2.5.4.10': 'Organization',
  '2.5.4.11': 'OrganizationalUnit',
  '2.5.4.7': 'Locality',
  '2.5.4.8': 'Province',
  '2.5.4.9': 'StreetAddress',
  '2.5.4.17': 'PostalCode',
};

/** A DER Name as Go's pkix.Name. */
function pkixName(buf: Buffer, el: Der): Json {
  const name: { [k: string]: Json } = {
    Country: null,
    Organization: null,
    OrganizationalUnit: null,
    Locality: null,
    Province: null,
    StreetAddress: null,
    PostalCode: null,
    SerialNumber: '',
    CommonName: '',
    Names: [],
    ExtraNames: null,
  };
  for (const rdn of children(buf, el)) {
    for (const atv of children(buf, rdn)) {
      const [t, v] = children(buf, atv);
      const type = oid(buf, t);
      const value = buf.subarray(v.start, v.end).toString(v.tag === 0x1e ? 'utf16le' : 'utf8');
      (name.Names as Json[]).push({ Type: type, Value: value });
      const key = type.join('.');
      if (key === '2.5.4.3') {
        name.CommonName = value;
      } else if (key === '2.5.4.5') {
        name.SerialNumber = value;
      } else if (NAME_FIELDS[key]) {
        const f = NAME_FIELDS[key];
        name[f] = [...((name[f] as Json[] | null) ?? []), value];
      }
    }
  }
  return name;
}

/** Go's time.Time JSON (RFC 3339) of a certificate date. */
function rfc3339(text: string): string {
  return new Date(text).toISOString().replace('.000Z', 'Z');
}

function altNames(cert: X509Certificate, kind: string): Json {
  const out = (cert.subjectAltName ?? '')
    .split(/,\s*/)
    .filter((p) => p.startsWith(kind + ':'))
    .map((p) => p.slice(kind.length + 1));
  return out.length > 0 ? out : null;
}

/** The Go x509.Certificate members of one DER certificate. */
function certificate(der: Buffer): Json {
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(der);
  } catch {
    throw builtinErr('x509: malformed certificate');
  }
  const top = derAt(der, 0);
  const [tbs] = children(der, top);
  const fields = children(der, tbs);
  const explicitVersion = fields[0].tag === 0xa0;
  const f = explicitVersion ? fields.slice(1) : fields;
  // tbsCertificate: serialNumber, signature, issuer, validity, subject, subjectPublicKeyInfo, …
  const serial = BigInt('0x' + (cert.serialNumber || '0'));
  return {
    Raw: der.toString('base64'),
    RawTBSCertificate: der.subarray(top.start, tbs.end).toString('base64'),
    Version: explicitVersion ? Number(der[children(der, fields[0])[0].start]) + 1 : 1,
    SerialNumber: serial <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(serial) : serial.toString(),
    Issuer: pkixName(der, f[2]),
    Subject: pkixName(der, f[4]),
    NotBefore: rfc3339(cert.validFrom),
    NotAfter: rfc3339(cert.validTo),
    IsCA: cert.ca,
    BasicConstraintsValid: cert.ca,
    PublicKeyAlgorithm: publicKeyAlgorithm(cert),
    DNSNames: altNames(cert, 'DNS'),
    EmailAddresses: altNames(cert, 'email'),
    IPAddresses: altNames(cert, 'IP Address'),
    URIStrings: altNames(cert, 'URI'),
  };
}

/** Go's x509.PublicKeyAlgorithm codes. */
function publicKeyAlgorithm(cert: X509Certificate): number {
  const codes: Record<string, number> = { rsa: 1, 'rsa-pss': 1, dsa: 2, ec: 3, ed25519: 4 };
  return codes[cert.publicKey.asymmetricKeyType ?? ''] ?? 0;
}

/** Go's base64.StdEncoding error text for the first bad byte. */
function stdBase64(text: string): Buffer {
  const bad = text.search(/[^A-Za-z0-9+/=\r\n]/);
  if (bad >= 0 || text.replace(/[\r\n]/g, '').length % 4 !== 0) {
    const at = bad >= 0 ? bad : text.length - (text.length % 4);
    throw builtinErr(`illegal base64 data at input byte ${at}`);
  }
  return Buffer.from(text, 'base64');
}

/** PEM blocks of a type, or the DER bytes; base64 of either is accepted (OPA's getX509CertsFromString). */
function pemOrDer(input: string, type: RegExp): Buffer[] {
  const text = input.startsWith('-----BEGIN') ? input : stdBase64(input).toString('latin1');
  if (text.startsWith('-----BEGIN')) {
    const blocks = [...text.matchAll(/-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g)];
    return blocks
      .filter((b) => type.test(b[1]))
      .map((b) => Buffer.from(b[2].replace(/\s+/g, ''), 'base64'));
  }
  return [Buffer.from(text, 'latin1')];
}

/** Concatenated DER certificates (Go's x509.ParseCertificates). */
function splitDer(buf: Buffer): Buffer[] {
  const out: Buffer[] = [];
  try {
    for (let at = 0; at < buf.length;) {
      const el = derAt(buf, at);
      if (el.tag !== 0x30) {
        throw new Error('not a sequence');
      }
      out.push(buf.subarray(at, el.next));
      at = el.next;
    }
  } catch {
    throw builtinErr('x509: malformed certificate');
  }
  return out;
}

function certificates(input: string): Buffer[] {
  return pemOrDer(input, /^CERTIFICATE$/).flatMap(splitDer);
}

/** OPA's verifyX509CertificateChain. */
function verifiedChain(input: Buffer[]): Buffer[] | undefined {
  const ders = [...input].reverse();
  return chainValid(ders) ? ders : undefined;
}

/** Leaf first, root last: each certificate is signed by the next; the root by itself. */
function chainValid(ders: Buffer[]): boolean {
  if (ders.length < 2) {
    return false;
  }
  try {
    const certs = ders.map((d) => new X509Certificate(d));
    const now = Date.now();
    return certs.every((c, i) => {
      const issuer = certs[Math.min(i + 1, certs.length - 1)];
      const inTime = new Date(c.validFrom).getTime() <= now && now <= new Date(c.validTo).getTime();
      const isRoot = i === certs.length - 1;
      return inTime && (isRoot || issuer.ca) && c.checkIssued(issuer) && c.verify(issuer.publicKey);
    });
  } catch {
    return false;
  }
}

function privateKeyJwk(der: Buffer, type: string): Json {
  const key = createPrivateKey({
    key: der,
    format: 'der',
    type: type === 'RSA PRIVATE KEY' ? 'pkcs1' : type === 'EC PRIVATE KEY' ? 'sec1' : 'pkcs8',
  });
  return key.export({ format: 'jwk' }) as Json;
}

function csrSubject(der: Buffer): Json {
  // CertificationRequest: { certificationRequestInfo { version, subject, … }, … }
  const top = derAt(der, 0);
  const [info] = children(der, top);
  const [, subject] = children(der, info);
  return pkixName(der, subject);
}

export const X509_BUILTINS: BuiltinDef[] = [
  def('crypto.x509.parse_certificates', 1, ([s]) =>
    fromJson(certificates(str(s, 1)).map(certificate)),
  ),
  def('crypto.x509.parse_and_verify_certificates', 1, ([s]) => {
    const chain = verifiedChain(certificates(str(s, 1)));
    return chain ? [true, fromJson(chain.map(certificate))] : [false, []];
  }),
  def('crypto.x509.parse_and_verify_certificates_with_options', 2, ([s]) => {
    const chain = verifiedChain(certificates(str(s, 1)));
    return chain ? [true, fromJson(chain.map(certificate))] : [false, []];
  }),
  def('crypto.x509.parse_certificate_request', 1, ([s]) => {
    const [der] = pemOrDer(str(s, 1), /CERTIFICATE REQUEST$/);
    if (!der) {
      throw builtinErr('x509: failed to decode PEM block containing certificate request');
    }
    try {
      return fromJson({ Raw: der.toString('base64'), Subject: csrSubject(der) });
    } catch {
      throw builtinErr("asn1: structure error: tags don't match");
    }
  }),
  def('crypto.x509.parse_keypair', 2, ([c, k]) => {
    const ders = certificates(str(c, 1));
    const keyText = str(k, 2);
    const keyPem = keyText.startsWith('-----BEGIN') ? keyText : stdBase64(keyText).toString('utf8');
    try {
      const priv = createPrivateKey(keyPem);
      const pub = createPublicKey(priv).export({ format: 'der', type: 'spki' });
      const certPub = new X509Certificate(ders[0]).publicKey.export({
        format: 'der',
        type: 'spki',
      });
      if (!pub.equals(certPub)) {
        throw new Error('tls: private key does not match public key');
      }
    } catch (e) {
      throw builtinErr(e instanceof Error ? e.message : String(e));
    }
    return fromJson({ Certificate: ders.map((d) => d.toString('base64')) });
  }),
  def('crypto.x509.parse_rsa_private_key', 1, ([s]) => {
    const [der] = pemOrDer(str(s, 1), /PRIVATE KEY$/);
    if (!der) {
      throw builtinErr('failed to parse PEM block containing the key');
    }
    return fromJson(privateKeyJwk(der, 'RSA PRIVATE KEY'));
  }),
  def('crypto.parse_private_keys', 1, ([s]): Value => {
    const text = str(s, 1);
    if (text === '') {
      return null;
    }
    let pem: string;
    try {
      pem = text.startsWith('-----BEGIN') ? text : stdBase64(text).toString('utf8');
    } catch {
      return [];
    }
    const blocks = [
      ...pem.matchAll(/-----BEGIN ([A-Z ]*PRIVATE KEY)-----([\s\S]*?)-----END \1-----/g),
    ];
    return fromJson(
      blocks.map((b) => privateKeyJwk(Buffer.from(b[2].replace(/\s+/g, ''), 'base64'), b[1])),
    );
  }),
];
