// Checks the kustomizations (k8s/, deploy/base, deploy/overlays/*): every file they name exists,
// every patch meets something to patch, and the overlays differ where D8 says they must.
import { execFileSync } from 'node:child_process';

import { parseAllDocuments } from 'yaml';

import type { ConfigMap, K8sObject, Workload } from './support/k8s';
import { containersOf } from './support/k8s';
import {
  generatorLiterals,
  kustomizationFileOf,
  patchFilesOf,
  readKustomization,
  resolveKustomization,
} from './support/kustomize';
import {
  type Located,
  findObject,
  objectsOfKind,
  platformObjects,
  workloads,
} from './support/platform';
import { REPO_DIR, SERVICE_NAMES, isRecord, listYamlFiles, readYaml } from './support/repo';

const OVERLAYS = ['deploy/overlays/dev', 'deploy/overlays/prod'];
const PLATFORM_CONFIG = 'agp-platform';
const objects = platformObjects();

interface JsonPatchOperation {
  op?: string;
  path?: string;
  value?: unknown;
}

function jsonPatchOperations(file: string): JsonPatchOperation[] {
  return readYaml(file).documents.flatMap((document) =>
    Array.isArray(document.content) ? (document.content as JsonPatchOperation[]) : [],
  );
}

function baseImages(): string[] {
  return workloads(objects).flatMap(({ object }) =>
    containersOf(object).map((container) => (container.image ?? '').replace(/[:@].*$/, '')),
  );
}

describe('kustomization files', () => {
  const kustomizations = listYamlFiles('k8s', 'deploy').filter((file) =>
    /(^|\/)kustomization\.ya?ml$/.test(file),
  );

  it('should find k8s/, the base and both overlays', () => {
    expect(kustomizations).toEqual(
      expect.arrayContaining([
        'k8s/kustomization.yaml',
        'deploy/base/kustomization.yaml',
        ...OVERLAYS.map((dir) => `${dir}/kustomization.yaml`),
      ]),
    );
  });

  it.each(kustomizations)('%s should name only files and folders that exist', (file) => {
    const missing = resolveKustomization(file.replace(/\/kustomization\.ya?ml$/, ''))
      .references.filter((reference) => !reference.exists)
      .map((reference) => `${reference.from} ${reference.field}: ${reference.path}`);
    expect(missing).toEqual([]);
  });

  it('should build the base from k8s/ in a namespace of its own', () => {
    const base = readKustomization('deploy/base/kustomization.yaml');
    expect(base.resources).toContain('../../k8s');
    expect(base.namespace).toMatch(/^[a-z0-9-]+$/);
    const namespaces = resolveKustomization('deploy/base').resourceFiles.flatMap((file) =>
      readYaml(file).documents.filter(
        (document) => isRecord(document.content) && document.content.kind === 'Namespace',
      ),
    );
    expect(namespaces).toHaveLength(1);
  });
});

describe.each(OVERLAYS)('the overlay %s', (overlay) => {
  const resolved = resolveKustomization(overlay);
  const { kustomization } = resolved;

  it('should build on the base', () => {
    expect(kustomization.resources).toContain('../../base');
    expect(kustomizationFileOf(overlay)).toBeDefined();
  });

  it(`should set PUBLIC_BASE_URL and AUTH_AUDIENCE by merging into the ${PLATFORM_CONFIG} ConfigMap`, () => {
    const generator = kustomization.configMapGenerator?.find(
      (candidate) => candidate.name === PLATFORM_CONFIG,
    );
    expect(generator?.behavior).toBe('merge');
    const literals = generatorLiterals(kustomization, PLATFORM_CONFIG);
    expect(new URL(literals.PUBLIC_BASE_URL ?? 'missing:').protocol).toBe('https:');
    // D8: tokens for the API carry aud = AUTH_AUDIENCE = {base_url}.
    expect(literals.AUTH_AUDIENCE).toBe(literals.PUBLIC_BASE_URL);
    const base = findObject<ConfigMap>(objects, 'ConfigMap', PLATFORM_CONFIG);
    expect(Object.keys(base?.data ?? {})).toEqual(
      expect.arrayContaining(['PUBLIC_BASE_URL', 'AUTH_AUDIENCE']),
    );
  });

  it('should retag exactly the images the manifests use', () => {
    const named = (kustomization.images ?? []).map((image) => image.name).sort();
    expect(named).toEqual([...new Set(baseImages())].sort());
    expect(
      (kustomization.images ?? []).every((image) => Boolean(image.newTag ?? image.digest)),
    ).toBe(true);
  });

  it('should patch only objects and containers that the base has', () => {
    const problems: string[] = [];
    for (const { file, target } of patchFilesOf(resolved)) {
      if (target) {
        const hit = objects.some(
          ({ object }) =>
            object.kind === target.kind && (!target.name || object.metadata?.name === target.name),
        );
        if (!hit) {
          problems.push(`${file}: no ${target.kind}/${target.name ?? '*'} in the base`);
        }
      }
      for (const { content } of readYaml(file).documents) {
        if (Array.isArray(content)) {
          const bad = (content as JsonPatchOperation[]).filter(
            (operation) =>
              !['add', 'remove', 'replace', 'move', 'copy', 'test'].includes(operation.op ?? '') ||
              !operation.path?.startsWith('/'),
          );
          problems.push(
            ...bad.map((operation) => `${file}: bad operation ${JSON.stringify(operation)}`),
          );
        } else if (isRecord(content)) {
          const patch = content as Workload;
          const original = findObject<Workload>(
            objects,
            patch.kind ?? '',
            patch.metadata?.name ?? '',
          );
          if (!original) {
            problems.push(`${file}: no ${patch.kind}/${patch.metadata?.name} in the base`);
            continue;
          }
          // A misspelt container name in a strategic merge patch would add a container.
          const names = containersOf(original).map((container) => container.name);
          problems.push(
            ...containersOf(patch)
              .filter((container) => !names.includes(container.name))
              .map((container) => `${file}: no container ${container.name}`),
          );
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('should point the gateway Ingress at the host of PUBLIC_BASE_URL', () => {
    const { host } = new URL(
      generatorLiterals(kustomization, PLATFORM_CONFIG).PUBLIC_BASE_URL ?? 'missing:',
    );
    const hostValues = patchFilesOf(resolved)
      .filter(({ target }) => target?.kind === 'Ingress')
      .flatMap(({ file }) => jsonPatchOperations(file))
      .filter((operation) =>
        /^\/spec\/(rules\/\d+\/host|tls\/\d+\/hosts\/\d+)$/.test(operation.path ?? ''),
      )
      .map((operation) => operation.value);
    expect(hostValues.length).toBeGreaterThan(0);
    expect(new Set(hostValues)).toEqual(new Set([host]));
  });
});

describe('the overlays side by side', () => {
  const literals = OVERLAYS.map((overlay) =>
    generatorLiterals(readKustomization(`${overlay}/kustomization.yaml`), PLATFORM_CONFIG),
  );

  it('should give each environment its own base address and audience (D8)', () => {
    expect(new Set(literals.map((values) => values.PUBLIC_BASE_URL)).size).toBe(OVERLAYS.length);
    expect(new Set(literals.map((values) => values.AUTH_AUDIENCE)).size).toBe(OVERLAYS.length);
  });
});

function kubectlKustomize(dir: string): K8sObject[] | undefined {
  try {
    const output = execFileSync('kubectl', ['kustomize', dir], {
      cwd: REPO_DIR,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const documents = parseAllDocuments(output);
    return (Array.isArray(documents) ? documents : []).map(
      (document) => document.toJS() as K8sObject,
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return undefined;
    }
    throw error;
  }
}

// Only where kubectl is installed (it bundles kustomize): the real rendering of each overlay.
const hasKubectl = ((): boolean => {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

(hasKubectl ? describe : describe.skip).each(OVERLAYS)('kubectl kustomize %s', (overlay) => {
  const kustomization = readKustomization(`${overlay}/kustomization.yaml`);
  let rendered: K8sObject[] = [];
  let located: Located[] = [];

  beforeAll(() => {
    rendered = kubectlKustomize(overlay) ?? [];
    located = rendered.map((object) => ({ file: overlay, object }));
  });

  it('should render the platform into the overlay namespace', () => {
    const outside = rendered.filter(
      (object) =>
        object.kind !== 'Namespace' && object.metadata?.namespace !== kustomization.namespace,
    );
    expect(outside.map((object) => `${object.kind}/${object.metadata?.name}`)).toEqual([]);
    expect(
      objectsOfKind(located, 'Deployment')
        .map(({ object }) => object.metadata?.name)
        .sort(),
    ).toEqual([...SERVICE_NAMES, 'console'].sort());
  });

  it('should carry the overlay base address, audience and image tags', () => {
    const data = findObject<ConfigMap>(located, 'ConfigMap', PLATFORM_CONFIG)?.data ?? {};
    const literals = generatorLiterals(kustomization, PLATFORM_CONFIG);
    expect({ PUBLIC_BASE_URL: data.PUBLIC_BASE_URL, AUTH_AUDIENCE: data.AUTH_AUDIENCE }).toEqual({
      PUBLIC_BASE_URL: literals.PUBLIC_BASE_URL,
      AUTH_AUDIENCE: literals.AUTH_AUDIENCE,
    });
    const images = workloads(located).flatMap(({ object }) =>
      containersOf(object).map((container) => container.image),
    );
    const expected = (kustomization.images ?? []).map(
      (image) => `${image.newName ?? image.name}:${image.newTag}`,
    );
    expect(images.filter((image) => !expected.includes(image ?? ''))).toEqual([]);
  });

  it('should keep probes, resources and security settings through the patches', () => {
    const incomplete = workloads(located)
      .flatMap(({ object }) => containersOf(object).map((container) => ({ object, container })))
      .filter(({ object, container }) => {
        const complete =
          container.resources?.requests?.cpu !== undefined &&
          container.resources.limits?.memory !== undefined &&
          container.securityContext?.readOnlyRootFilesystem === true;
        const probed =
          object.kind !== 'Deployment' ||
          (container.livenessProbe !== undefined && container.readinessProbe !== undefined);
        return !complete || !probed;
      })
      .map(({ object, container }) => `${object.kind}/${object.metadata?.name} ${container.name}`);
    expect(incomplete).toEqual([]);
  });
});
