import fs from 'node:fs';
import path from 'node:path';

import { parseAllDocuments } from 'yaml';

/** The repository root (deploy/test/support → ../../..). */
export const REPO_DIR = path.resolve(__dirname, '..', '..', '..');

/** The four deployables, their ports (env PORT) and the secret variables each one reads (D3). */
export const SERVICES = {
  'api-gateway': { port: 8080, secrets: [] as string[], ownsSchema: false },
  'tenant-auth': {
    port: 3001,
    secrets: ['DATABASE_URL', 'KEY_ENCRYPTION_SECRET'],
    ownsSchema: true,
  },
  relay: { port: 3002, secrets: ['DATABASE_URL', 'SECRETS_KEY'], ownsSchema: true },
  audit: { port: 3003, secrets: ['DATABASE_URL', 'AUDIT_SIGNING_KEY_SECRET'], ownsSchema: true },
} as const;
export type ServiceName = keyof typeof SERVICES;
export const SERVICE_NAMES = Object.keys(SERVICES) as ServiceName[];
export const INTERNAL_SERVICES = SERVICE_NAMES.filter((name) => name !== 'api-gateway');
export const GATEWAY: ServiceName = 'api-gateway';

/** Variables that must only ever come from a Secret. */
export const SECRET_VARIABLES = [
  'DATABASE_URL',
  'KEY_ENCRYPTION_SECRET',
  'AUDIT_SIGNING_KEY_SECRET',
  'SECRETS_KEY',
];

/** D3: what every service reads, and what each one reads besides. */
export const COMMON_VARIABLES = ['PORT', 'LOG_LEVEL', 'PUBLIC_BASE_URL', 'AUTH_AUDIENCE'];
export const SERVICE_VARIABLES: Record<ServiceName, string[]> = {
  'api-gateway': ['TENANT_AUTH_URL', 'RELAY_URL', 'AUDIT_URL', 'UPSTREAM_TIMEOUT_MS'],
  'tenant-auth': ['DATABASE_URL', 'NATS_URL', 'KEY_ENCRYPTION_SECRET'],
  relay: ['DATABASE_URL', 'NATS_URL', 'SECRETS_KEY', 'EGRESS_ALLOW_PRIVATE'],
  audit: ['DATABASE_URL', 'NATS_URL', 'AUDIT_SIGNING_KEY_SECRET'],
};

export interface YamlDocument {
  /** Path relative to the repository root. */
  file: string;
  index: number;
  content: unknown;
}

export interface YamlFile {
  file: string;
  errors: string[];
  documents: YamlDocument[];
}

const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'coverage', '.turbo']);

/** Every .yaml/.yml file under the given repository folders, relative to the root, sorted. */
export function listYamlFiles(...dirs: string[]): string[] {
  const found: string[] = [];
  const walk = (relative: string): void => {
    for (const entry of fs.readdirSync(path.join(REPO_DIR, relative), { withFileTypes: true })) {
      const child = path.posix.join(relative, entry.name);
      if (entry.isDirectory() && !SKIPPED_DIRS.has(entry.name)) {
        walk(child);
      } else if (entry.isFile() && /\.ya?ml$/.test(entry.name)) {
        found.push(child);
      }
    }
  };
  dirs.forEach(walk);
  return found.sort();
}

const cache = new Map<string, YamlFile>();

/** Parses a file into its documents (multi-document aware; merge keys as docker compose reads them). */
export function readYaml(file: string): YamlFile {
  const cached = cache.get(file);
  if (cached) {
    return cached;
  }
  const text = fs.readFileSync(path.join(REPO_DIR, file), 'utf8');
  const parsed = parseAllDocuments(text, { merge: true, uniqueKeys: true });
  const list = Array.isArray(parsed) ? parsed : [];
  const errors = list.flatMap((doc) => doc.errors.map((error) => error.message));
  if (!Array.isArray(parsed)) {
    errors.push('not a YAML stream');
  }
  const documents = list
    .map((doc, index) => ({ file, index, content: doc.toJS({ maxAliasCount: 100 }) as unknown }))
    .filter((doc) => doc.content !== null && doc.content !== undefined);
  const result = { file, errors, documents };
  cache.set(file, result);
  return result;
}

export function readText(file: string): string {
  return fs.readFileSync(path.join(REPO_DIR, file), 'utf8');
}

export function exists(file: string): boolean {
  return fs.existsSync(path.join(REPO_DIR, file));
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Secret name → the keys deploy/secrets/secrets.example.yaml documents for it. */
export function documentedSecrets(): Map<string, string[]> {
  const secrets = new Map<string, string[]>();
  for (const { content } of readYaml('deploy/secrets/secrets.example.yaml').documents) {
    if (isRecord(content) && content.kind === 'Secret' && isRecord(content.metadata)) {
      const data = {
        ...(isRecord(content.data) ? content.data : {}),
        ...(isRecord(content.stringData) ? content.stringData : {}),
      };
      secrets.set(String(content.metadata.name), Object.keys(data));
    }
  }
  return secrets;
}
