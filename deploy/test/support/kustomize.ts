// Just enough of kustomize to follow a kustomization's references: which files it names, whether
// they exist, and which manifests end up in it. It applies nothing (no patches, no generators);
// the rendering itself is checked with `kubectl kustomize` where that is installed.
import path from 'node:path';

import { exists, isRecord, readYaml } from './repo';

export interface PatchTarget {
  kind?: string;
  name?: string;
  labelSelector?: string;
}

export interface Generator {
  name?: string;
  behavior?: 'create' | 'merge' | 'replace';
  files?: string[];
  envs?: string[];
  literals?: string[];
}

export interface Kustomization {
  namespace?: string;
  resources?: string[];
  components?: string[];
  crds?: string[];
  patches?: { path?: string; patch?: string; target?: PatchTarget }[];
  patchesStrategicMerge?: string[];
  patchesJson6902?: { path?: string; target?: PatchTarget }[];
  configMapGenerator?: Generator[];
  secretGenerator?: Generator[];
  images?: { name?: string; newName?: string; newTag?: string; digest?: string }[];
}

export interface Reference {
  /** The kustomization file that names it. */
  from: string;
  field: string;
  path: string;
  exists: boolean;
}

export interface ResolvedKustomization {
  dir: string;
  file: string;
  kustomization: Kustomization;
  /** Every file or folder named, by this kustomization and those it includes. */
  references: Reference[];
  /** The manifest files it includes, through resources, in order. */
  resourceFiles: string[];
}

const FILE_NAMES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];

/** The kustomization file of a repository folder, if it has one. */
export function kustomizationFileOf(dir: string): string | undefined {
  return FILE_NAMES.map((name) => path.posix.join(dir, name)).find(exists);
}

export function readKustomization(file: string): Kustomization {
  const [document] = readYaml(file).documents;
  return isRecord(document?.content) ? document.content : {};
}

/** Follows a kustomization folder (repository-relative) and everything it includes. */
export function resolveKustomization(dir: string, seen = new Set<string>()): ResolvedKustomization {
  const file = kustomizationFileOf(dir);
  if (!file) {
    throw new Error(`${dir} has no kustomization file`);
  }
  const kustomization = readKustomization(file);
  const references: Reference[] = [];
  const resourceFiles: string[] = [];
  const refer = (field: string, entry: string): string => {
    const target = path.posix.normalize(path.posix.join(dir, entry));
    // Remote bases are not allowed here: everything the platform deploys is in this repository.
    const isLocal = !/^[a-z]+:\/\/|^github\.com\//.test(entry);
    references.push({ from: file, field, path: target, exists: isLocal && exists(target) });
    return target;
  };

  for (const entry of [...(kustomization.resources ?? []), ...(kustomization.components ?? [])]) {
    const target = refer('resources', entry);
    const nested = kustomizationFileOf(target);
    if (nested && !seen.has(target)) {
      seen.add(target);
      const child = resolveKustomization(target, seen);
      references.push(...child.references);
      resourceFiles.push(...child.resourceFiles);
    } else if (exists(target) && /\.ya?ml$/.test(target)) {
      resourceFiles.push(target);
    }
  }
  for (const entry of kustomization.crds ?? []) {
    refer('crds', entry);
  }
  for (const patch of [
    ...(kustomization.patches ?? []),
    ...(kustomization.patchesJson6902 ?? []),
  ]) {
    if (patch.path) {
      refer('patches', patch.path);
    }
  }
  for (const entry of kustomization.patchesStrategicMerge ?? []) {
    refer('patchesStrategicMerge', entry);
  }
  for (const generator of [
    ...(kustomization.configMapGenerator ?? []),
    ...(kustomization.secretGenerator ?? []),
  ]) {
    // `files` entries may be `key=path`.
    for (const entry of generator.files ?? []) {
      refer('generator files', entry.includes('=') ? entry.slice(entry.indexOf('=') + 1) : entry);
    }
    for (const entry of generator.envs ?? []) {
      refer('generator envs', entry);
    }
  }
  return { dir, file, kustomization, references, resourceFiles };
}

/** The patch files of one kustomization (not of those it includes), with their targets. */
export function patchFilesOf(
  resolved: ResolvedKustomization,
): { file: string; target?: PatchTarget }[] {
  const { kustomization, dir } = resolved;
  const inDir = (entry: string): string => path.posix.normalize(path.posix.join(dir, entry));
  return [
    ...[...(kustomization.patches ?? []), ...(kustomization.patchesJson6902 ?? [])]
      .filter(
        (patch): patch is { path: string; target?: PatchTarget } => typeof patch.path === 'string',
      )
      .map((patch) => ({ file: inDir(patch.path), target: patch.target })),
    ...(kustomization.patchesStrategicMerge ?? []).map((entry) => ({ file: inDir(entry) })),
  ];
}

/** `KEY=value` literals of the named ConfigMap generator, as an object. */
export function generatorLiterals(
  kustomization: Kustomization,
  name: string,
): Record<string, string> {
  const generator = kustomization.configMapGenerator?.find((candidate) => candidate.name === name);
  return Object.fromEntries(
    (generator?.literals ?? []).map((literal) => {
      const at = literal.indexOf('=');
      return [literal.slice(0, at), literal.slice(at + 1)];
    }),
  );
}
