import { Rule } from '../finding';
import { Scan, Starts, triggerStarts } from '../scan';
import { base62, crc32 } from '../checksums';
import { looksLikePlaceholder } from './placeholders';

// Keys recognised by their issuers' documented prefixes and layouts (GR6). Each starts with a
// literal and a look-behind on the token alphabet, so a scan is linear (GR2).

const T = '(?<![A-Za-z0-9_-])';
const END = '(?![A-Za-z0-9_-])';

/** The part of a body before its first counted character class: what every match starts with. */
function prefixOf(body: string): string {
  return /^(.*?)\[[^\]]*\]\{/.exec(body)?.[1] ?? body;
}

const prefixes: string[] = [];

/** GR26: one scan for every rule's prefix; each rule is tried where its first character is. */
let combinedTrigger: Starts | undefined;
const prefixStarts: Starts = (scan) =>
  (combinedTrigger ??= triggerStarts(new RegExp(prefixes.join('|'), 'g')))(scan);

function firstCharacters(body: string): Set<string> {
  const alternatives = body.startsWith('(?:')
    ? body.slice(3, body.indexOf(')')).split('|')
    : [body];
  return new Set(alternatives.map((a) => a[0]));
}

function startsFor(firsts: Set<string>): Starts {
  const find = (scan: Scan): number[] | null =>
    prefixStarts(scan)?.filter((at) => firsts.has(scan.text[at])) ?? null;
  return (scan) => scan.positions(find, find);
}

function prefixedRule(type: string, body: string, score: number): Omit<Rule, 'validate'> {
  prefixes.push(`(?:${prefixOf(body)})`);
  const starts = startsFor(firstCharacters(body));
  return { type, regex: new RegExp(`${T}${body}${END}`, 'g'), score, starts };
}

function prefixed(type: string, body: string, score = 0.95, minEntropy = 2.5): Rule {
  return {
    ...prefixedRule(type, body, score),
    validate: (value) => (looksLikePlaceholder(value, minEntropy) ? 0 : score),
  };
}

/** GitHub and npm tokens end in a base62 CRC32 of their random part: a match is near certain. */
function checksummed(type: string, body: string, randomFrom: number): Rule {
  return {
    ...prefixedRule(type, body, 0.99),
    validate: (value) => {
      if (looksLikePlaceholder(value)) {
        return 0;
      }
      const random = value.slice(randomFrom, value.length - 6);
      return base62(crc32(random), 6) === value.slice(-6) ? 0.99 : 0.8;
    },
  };
}

export const PREFIXED_RULES: Rule[] = [
  prefixed(
    'AWS_ACCESS_KEY',
    '(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA|ANVA|APKA)[A-Z2-7]{16}',
    0.95,
    2,
  ),
  checksummed('GITHUB_TOKEN', 'gh[pousr]_[A-Za-z0-9]{36}', 4),
  prefixed('GITHUB_TOKEN', 'github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}'),
  prefixed('GITLAB_TOKEN', 'gl(?:pat|dt|ptt|rt|cbt|oas)-[A-Za-z0-9_-]{20,64}'),
  checksummed('NPM_TOKEN', 'npm_[A-Za-z0-9]{36}', 4),
  prefixed('SLACK_TOKEN', 'xox[abposr]-(?:\\d{1,14}-){1,3}[A-Za-z0-9-]{10,64}'),
  prefixed(
    'SLACK_WEBHOOK',
    'https://hooks\\.slack\\.com/(?:services|workflows|triggers)/T[A-Z0-9]{6,12}/[A-Z0-9]{6,12}/[A-Za-z0-9]{20,30}',
  ),
  prefixed('STRIPE_KEY', '(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,99}'),
  prefixed('OPENAI_API_KEY', 'sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{40,200}'),
  prefixed('OPENAI_API_KEY', 'sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}'),
  prefixed('ANTHROPIC_API_KEY', 'sk-ant-(?:api|admin|sid)\\d{2}-[A-Za-z0-9_-]{80,120}'),
  prefixed('GOOGLE_API_KEY', 'AIza[0-9A-Za-z_-]{35}'),
  prefixed('GOOGLE_OAUTH_SECRET', 'GOCSPX-[A-Za-z0-9_-]{28}'),
  prefixed('SENDGRID_API_KEY', 'SG\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}'),
  prefixed('TWILIO_API_KEY', 'SK[0-9a-f]{32}', 0.85),
  prefixed('HUGGINGFACE_TOKEN', 'hf_[A-Za-z0-9]{34}'),
  prefixed('PYPI_TOKEN', 'pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,200}'),
  prefixed('SHOPIFY_TOKEN', 'shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}'),
  prefixed('DIGITALOCEAN_TOKEN', 'do[por]_v1_[a-f0-9]{64}'),
  prefixed('MAILGUN_API_KEY', 'key-[0-9a-f]{32}', 0.8),
  prefixed('ATLASSIAN_TOKEN', 'ATATT3[A-Za-z0-9_=-]{150,250}'),
  prefixed('DATABRICKS_TOKEN', 'dapi[a-f0-9]{32}(?:-\\d)?'),
  prefixed('AZURE_SAS_TOKEN', 'sig=[A-Za-z0-9%+/]{40,64}(?:%3D|=){0,2}', 0.85),
  prefixed('LINEAR_API_KEY', 'lin_api_[A-Za-z0-9]{40}'),
  prefixed('DOPPLER_TOKEN', 'dp\\.(?:pt|st|sa|ct|scim|audit)\\.[A-Za-z0-9]{40,44}'),
  prefixed('POSTMAN_API_KEY', 'PMAK-[a-f0-9]{24}-[a-f0-9]{34}'),
  prefixed('GRAFANA_TOKEN', 'glsa_[A-Za-z0-9]{32}_[a-f0-9]{8}'),
  prefixed('VAULT_TOKEN', 'hv[sbr]\\.[A-Za-z0-9_-]{24,120}'),
];
