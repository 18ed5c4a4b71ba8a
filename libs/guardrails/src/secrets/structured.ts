import { Finding, Rule, before } from '../finding';
import { entropy } from '../checksums';
import { Scan, literalTrie, triggerStarts } from '../scan';
import { looksLikePlaceholder } from './placeholders';

// Private keys, JWTs, connection strings and generic assignments (GR6, GR2: bounded quantifiers).

const KEY_BEGIN = /-----BEGIN (?:[A-Z0-9]{1,12} ){0,2}PRIVATE KEY(?: BLOCK)?-----/g;
const MAX_KEY_CHARS = 16_384;

/** A PEM private key: from its BEGIN line to its END line (found with indexOf, linear). */
export function privateKeys(text: string): Finding[] {
  const found: Finding[] = [];
  KEY_BEGIN.lastIndex = 0;
  let nextEnd = -2;
  for (const m of text.matchAll(KEY_BEGIN)) {
    const bodyStart = m.index + m[0].length;
    // One forward search per END line, never one per BEGIN line (GR2: 64 K of BEGINs stay linear).
    if (nextEnd !== -1 && nextEnd < bodyStart) {
      nextEnd = text.indexOf('-----END', bodyStart);
    }
    const endAt = nextEnd;
    const close =
      endAt >= 0 && endAt - m.index < MAX_KEY_CHARS ? text.indexOf('-----', endAt + 8) : -1;
    const bodyEnd = text.indexOf('-----', bodyStart);
    const body = text
      .slice(bodyStart, Math.min(bodyEnd < 0 ? bodyStart + 256 : bodyEnd, bodyStart + 4096))
      .replace(/\s/g, '');
    // Documentation writes "-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----".
    if (body.length >= 40 && !looksLikePlaceholder(body.slice(0, 256))) {
      const end = close >= 0 ? close + 5 : bodyStart;
      found.push({ type: 'PRIVATE_KEY', start: m.index, end, score: close >= 0 ? 0.99 : 0.9 });
    }
  }
  return found;
}

const JSON_HEADER = /^\{\s{0,4}"[A-Za-z0-9_]{1,20}"\s{0,4}:[^]*\}$/;

/** A JWT's header is JSON naming its algorithm; tested before parsing, so junk never throws. */
function jwtScore(value: string): number {
  const header = Buffer.from(value.slice(0, value.indexOf('.')), 'base64url').toString('utf8');
  if (!JSON_HEADER.test(header)) {
    return 0;
  }
  try {
    const parsed = JSON.parse(header) as unknown;
    return typeof parsed === 'object' && parsed !== null && 'alg' in parsed ? 0.95 : 0.6;
  } catch {
    return 0;
  }
}

const JWT: Rule = {
  type: 'JWT',
  regex:
    /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,2048}\.eyJ[A-Za-z0-9_-]{2,8192}\.[A-Za-z0-9_-]{0,1024}(?![A-Za-z0-9_-])/g,
  score: 0,
  starts: triggerStarts(/eyJ/g),
  validate: (value) => jwtScore(value),
};

const SCHEME =
  /(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|redis|rediss|amqps?|mssql|sqlserver|oracle|clickhouse|nats|ldaps?|ftp|sftp|smtps?|jdbc:[a-z]{2,12}):\/\//;

const isWordPlusDotDash = (c: number): boolean =>
  (c >= 48 && c <= 57) ||
  (c >= 65 && c <= 90) ||
  (c >= 97 && c <= 122) ||
  c === 95 ||
  c === 43 ||
  c === 46 ||
  c === 45;
const isSchemeChar = (c: number): boolean => isWordPlusDotDash(c) || c === 58;

/** GR26: a scheme starts within 24 characters before its `://`, after none of `[\w+.-]`. */
function schemeStarts(scan: Scan): number[] | null {
  const text = scan.text;
  const out: number[] = [];
  for (let at = text.indexOf('://'); at >= 0; at = text.indexOf('://', at + 1)) {
    const from = Math.max(out[out.length - 1] + 1 || 0, at - 24);
    let s = at;
    while (s > from && isSchemeChar(text.charCodeAt(s - 1))) {
      s -= 1;
    }
    for (; s < at; s += 1) {
      if (s === 0 || !isWordPlusDotDash(text.charCodeAt(s - 1))) {
        out.push(s);
      }
    }
    if (out.length > scan.denseStarts) {
      return null;
    }
  }
  return out;
}

const CONNECTION_STRING: Rule = {
  type: 'CONNECTION_STRING',
  regex: new RegExp(
    `(?<![\\w+.-])${SCHEME.source}[^\\s:/@'"\`]{1,64}:([^\\s@'"\`/]{1,128})@[^\\s'"\`<>]{1,256}`,
    'g',
  ),
  score: 0,
  starts: (scan) => scan.positions(schemeStarts, schemeStarts),
  validate: (value) => {
    const password = value.slice(
      value.indexOf(':', value.indexOf('//') + 2) + 1,
      value.lastIndexOf('@'),
    );
    return /^(?:pass(?:word)?|secret|\*+|x+|<[^>]*>|\$\{[^}]*\}|\{\{[^}]*\}\}|%s|:?[a-z_]*password[a-z_]*)$/i.test(
      password,
    )
      ? 0
      : 0.95;
  },
};

const AZURE_CONNECTION: Rule = {
  type: 'CONNECTION_STRING',
  regex:
    /(?:AccountKey|SharedAccessKey|Password|Pwd)=([A-Za-z0-9+/=]{20,120}|[^;\s'"]{8,128})(?=;|$|\s|["'])/g,
  score: 0,
  validate: (value, text, start) =>
    /(?:DefaultEndpointsProtocol|Endpoint|Server|Data Source|AccountName)=/i.test(
      before(text, start, 300),
    ) && !looksLikePlaceholder(value.slice(value.indexOf('=') + 1))
      ? 0.95
      : 0,
};

const SECRET_NAMES =
  '(?:secret|passwd|password|passphrase|pwd|api[_-]?key|apikey|access[_-]?key|auth[_-]?token|access[_-]?token|refresh[_-]?token|bearer|private[_-]?key|client[_-]?secret|signing[_-]?key|encryption[_-]?key|token|credentials?)';

const CODE_VALUE =
  /^(?:true|false|null|none|nil|undefined|[A-Za-z_]{1,40}\(|process\.|os\.|env\.|self\.|this\.|\$|%|@|&|\{|\[|[A-Za-z_$][\w$]{0,60}(?:\??\.[A-Za-z_$][\w$]{0,60}){1,8}$|[a-z][a-z0-9]{0,29}(?:[_-][a-z][a-z0-9]{0,29}){1,8}$|[\w-]{1,60}\.(?:key|pem|crt|json|txt|ya?ml|env|p12)$|[a-z]{1,40}$|[A-Z_]{1,40}$)/i;

/** Lower-case paths (`prod/db/credentials`) name where a secret is kept, not the secret. */
const PATH_VALUE = /^[a-z0-9_.-]{1,60}(?:\/[a-z0-9_.-]{1,60}){1,10}$/;

/** GR6: a value assigned to a secret-sounding name counts when it looks random, not like code. */
function genericScore(value: string): number {
  const v = value.replace(/^["'`]|["'`]$/g, '');
  if (v.length < 8 || CODE_VALUE.test(v) || PATH_VALUE.test(v) || looksLikePlaceholder(v, 0)) {
    return 0;
  }
  const classes =
    Number(/[a-z]/.test(v)) +
    Number(/[A-Z]/.test(v)) +
    Number(/\d/.test(v)) +
    Number(/[^A-Za-z0-9]/.test(v));
  const bits = entropy(v);
  if (classes < 2 || /^\d+$/.test(v) || /^[\d.:-]+$/.test(v)) {
    return 0;
  }
  if (v.length >= 16 && bits >= 3.2) {
    return 0.85;
  }
  if (v.length >= 8 && bits >= 2.75 && classes >= 3) {
    return 0.7;
  }
  return 0;
}

const GENERIC_SECRET: Rule = {
  type: 'GENERIC_SECRET',
  regex: new RegExp(
    `${SECRET_NAMES}[A-Za-z0-9_.-]{0,20}["'\`]?\\s{0,3}(?::=|=>|==|[:=])\\s{0,3}(?:["'\`]|[Bb]earer )?([^\\s"'\`,;<>(){}\\[\\]]{8,200})`,
    'gi',
  ),
  group: 1,
  score: 0,
  starts: triggerStarts(
    new RegExp(
      literalTrie(
        'secret pass pwd api access auth refresh bearer private client signing encryption token credential'.split(
          ' ',
        ),
      ),
      'gi',
    ),
  ),
  validate: (value) => genericScore(value),
};

export const STRUCTURED_RULES: Rule[] = [JWT, CONNECTION_STRING, AZURE_CONNECTION, GENERIC_SECRET];
