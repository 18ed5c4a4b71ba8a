// Checks the Kubernetes manifests (k8s/, as deploy/base includes them) by reading the files: no
// cluster is needed. Each check names what it found wrong, so a failure reads as a to-do list.
import type {
  Container,
  HorizontalPodAutoscaler,
  Labels,
  NetworkPolicy,
  PodDisruptionBudget,
  Service,
  Workload,
} from './support/k8s';
import { containersOf, resolvePort, selectorMatches } from './support/k8s';
import { resolveKustomization } from './support/kustomize';
import {
  configMapData,
  findObject,
  objectsOfKind,
  platformObjects,
  workloads,
} from './support/platform';
import {
  COMMON_VARIABLES,
  GATEWAY,
  INTERNAL_SERVICES,
  SECRET_VARIABLES,
  SERVICE_NAMES,
  SERVICE_VARIABLES,
  SERVICES,
  type ServiceName,
  documentedSecrets,
  listYamlFiles,
  readYaml,
} from './support/repo';

const PART_OF = 'agent-governance-platform';
const objects = platformObjects();
const allWorkloads = workloads(objects);
const policies = objectsOfKind<NetworkPolicy>(objects, 'NetworkPolicy').map(
  (located) => located.object,
);

function deploymentOf(service: ServiceName): Workload {
  const deployment = findObject<Workload>(objects, 'Deployment', service);
  if (!deployment) {
    throw new Error(`no Deployment named ${service} in k8s/`);
  }
  return deployment;
}

function serverContainer(service: ServiceName): Container {
  const containers = deploymentOf(service).spec?.template?.spec?.containers ?? [];
  const container = containers.find((candidate) => candidate.name === service) ?? containers[0];
  if (!container) {
    throw new Error(`the ${service} Deployment has no container`);
  }
  return container;
}

function podLabels(workload: Workload): Labels {
  return workload.spec?.template?.metadata?.labels ?? {};
}

function workloadName(workload: Workload): string {
  return `${workload.kind}/${workload.metadata?.name}`;
}

/** Every variable a container gets: env entries plus the keys of the ConfigMaps and Secrets it loads. */
function variablesOf(container: Container): string[] {
  const secrets = documentedSecrets();
  const fromEnvFrom = (container.envFrom ?? []).flatMap((source) => [
    ...Object.keys(configMapData(objects, source.configMapRef?.name) ?? {}),
    ...(source.secretRef?.name ? (secrets.get(source.secretRef.name) ?? []) : []),
  ]);
  return [...(container.env ?? []).map((variable) => variable.name), ...fromEnvFrom];
}

describe('YAML under k8s/ and deploy/', () => {
  const files = listYamlFiles('k8s', 'deploy');

  it('should find the manifests', () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it.each(files)('should parse %s', (file) => {
    const parsed = readYaml(file);
    expect(parsed.errors).toEqual([]);
    expect(parsed.documents.length).toBeGreaterThan(0);
  });

  it('should list every manifest under k8s/ in k8s/kustomization.yaml', () => {
    const listed = new Set(resolveKustomization('k8s').resourceFiles);
    const unlisted = listYamlFiles('k8s').filter(
      (file) => !/kustomization\.ya?ml$/.test(file) && !listed.has(file),
    );
    expect(unlisted).toEqual([]);
  });

  it('should give every object a kind, a name and the platform labels', () => {
    const unlabelled = objects
      .filter(({ object }) => {
        const labels = object.metadata?.labels ?? {};
        return (
          !object.apiVersion ||
          !object.metadata?.name ||
          !labels['app.kubernetes.io/name'] ||
          labels['app.kubernetes.io/part-of'] !== PART_OF
        );
      })
      .map(({ file, object }) => `${file}: ${object.kind}/${object.metadata?.name}`);
    expect(unlabelled).toEqual([]);
  });
});

describe.each(SERVICE_NAMES)('the %s service', (service) => {
  const { port } = SERVICES[service];

  it('should have a Deployment, a Service, a HorizontalPodAutoscaler and a PodDisruptionBudget', () => {
    const has = (kind: string): boolean =>
      objectsOfKind(objects, kind).some(
        ({ object }) => object.metadata?.labels?.['app.kubernetes.io/name'] === service,
      );
    expect({
      Deployment: Boolean(findObject(objects, 'Deployment', service)),
      Service: Boolean(findObject(objects, 'Service', service)),
      HorizontalPodAutoscaler: has('HorizontalPodAutoscaler'),
      PodDisruptionBudget: has('PodDisruptionBudget'),
    }).toEqual({
      Deployment: true,
      Service: true,
      HorizontalPodAutoscaler: true,
      PodDisruptionBudget: true,
    });
  });

  it('should label its pods and select them by those labels', () => {
    const deployment = deploymentOf(service);
    const labels = podLabels(deployment);
    expect(labels['app.kubernetes.io/name']).toBe(service);
    expect(labels['app.kubernetes.io/part-of']).toBe(PART_OF);
    expect(selectorMatches(deployment.spec?.selector, labels)).toBe(true);
  });

  it(`should run the agp/${service} image and listen on ${port}`, () => {
    const container = serverContainer(service);
    expect(container.image).toMatch(new RegExp(`^agp/${service}:[\\w.-]+$`));
    expect(container.ports?.map((candidate) => candidate.containerPort)).toContain(port);
  });

  it('should probe /health/live for liveness and /health/ready for readiness on its port', () => {
    const container = serverContainer(service);
    const probe = (handler: Container['livenessProbe']): { path?: string; port?: number } => ({
      path: handler?.httpGet?.path,
      port: resolvePort(handler?.httpGet?.port, container),
    });
    expect(probe(container.livenessProbe)).toEqual({ path: '/health/live', port });
    expect(probe(container.readinessProbe)).toEqual({ path: '/health/ready', port });
  });

  it('should receive every variable D3 gives it, with PORT equal to its container port', () => {
    const container = serverContainer(service);
    const variables = variablesOf(container);
    const missing = [...COMMON_VARIABLES, ...SERVICE_VARIABLES[service]].filter(
      (name) => !variables.includes(name),
    );
    expect(missing).toEqual([]);
    const ports = (container.envFrom ?? []).map(
      (source) => configMapData(objects, source.configMapRef?.name)?.PORT,
    );
    const literal = container.env?.find((variable) => variable.name === 'PORT')?.value;
    expect([literal, ...ports].filter((value) => value !== undefined)).toEqual([String(port)]);
  });

  it('should have a Service on its port that selects its server pods only', () => {
    const service_ = findObject<Service>(objects, 'Service', service);
    const container = serverContainer(service);
    const selector = service_?.spec?.selector ?? {};
    expect(Object.keys(selector).length).toBeGreaterThan(0);
    expect(selectorMatches(selector, podLabels(deploymentOf(service)))).toBe(true);
    const alsoSelected = allWorkloads
      .filter(
        ({ object }) =>
          object !== deploymentOf(service) && selectorMatches(selector, podLabels(object)),
      )
      .map(({ object }) => workloadName(object));
    expect(alsoSelected).toEqual([]);
    const ports = (service_?.spec?.ports ?? []).map((candidate) => ({
      port: candidate.port,
      target: resolvePort(candidate.targetPort ?? candidate.port, container),
    }));
    expect(ports).toContainEqual({ port, target: port });
  });

  it('should scale on CPU with an autoscaling/v2 HorizontalPodAutoscaler', () => {
    const hpa = objectsOfKind<HorizontalPodAutoscaler>(objects, 'HorizontalPodAutoscaler')
      .map(({ object }) => object)
      .find((candidate) => candidate.spec?.scaleTargetRef?.name === service);
    expect(hpa?.apiVersion).toBe('autoscaling/v2');
    expect(hpa?.spec?.scaleTargetRef).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      name: service,
    });
    expect(hpa?.spec?.metrics?.map((metric) => metric.resource?.name)).toContain('cpu');
    expect(hpa?.spec?.minReplicas).toBeGreaterThanOrEqual(1);
    expect(hpa?.spec?.maxReplicas).toBeGreaterThanOrEqual(hpa?.spec?.minReplicas ?? Infinity);
  });

  it('should have a policy/v1 PodDisruptionBudget over its pods', () => {
    const labels = podLabels(deploymentOf(service));
    const pdbs = objectsOfKind<PodDisruptionBudget>(objects, 'PodDisruptionBudget')
      .map(({ object }) => object)
      .filter((pdb) => selectorMatches(pdb.spec?.selector, labels));
    expect(pdbs.map((pdb) => pdb.apiVersion)).toEqual(['policy/v1']);
    expect(pdbs[0]?.spec?.minAvailable ?? pdbs[0]?.spec?.maxUnavailable).toBeDefined();
  });
});

describe('autoscalers and disruption budgets', () => {
  it('should target only Deployments that exist', () => {
    const dangling = objectsOfKind<HorizontalPodAutoscaler>(objects, 'HorizontalPodAutoscaler')
      .map(({ object }) => object.spec?.scaleTargetRef)
      .filter(
        (target) =>
          target?.kind !== 'Deployment' || !findObject(objects, 'Deployment', target.name ?? ''),
      )
      .map((target) => `${target?.kind}/${target?.name}`);
    expect(dangling).toEqual([]);
  });

  it('should select the pods of a Deployment with every PodDisruptionBudget', () => {
    const deployments = objectsOfKind<Workload>(objects, 'Deployment').map(({ object }) => object);
    const unmatched = objectsOfKind<PodDisruptionBudget>(objects, 'PodDisruptionBudget')
      .map(({ object }) => object)
      .filter(
        (pdb) =>
          !Object.keys(pdb.spec?.selector?.matchLabels ?? {}).length ||
          !deployments.some((deployment) =>
            selectorMatches(pdb.spec?.selector, podLabels(deployment)),
          ),
      )
      .map((pdb) => pdb.metadata?.name);
    expect(unmatched).toEqual([]);
  });
});

describe('every container of every workload (Deployments and Jobs)', () => {
  const containers = allWorkloads.flatMap(({ object }) =>
    containersOf(object).map((container) => ({
      label: `${workloadName(object)} ${container.name}`,
      workload: object,
      container,
    })),
  );

  it('should find the four Deployments and the migration Jobs', () => {
    expect(containers.length).toBeGreaterThanOrEqual(
      SERVICE_NAMES.length + INTERNAL_SERVICES.length,
    );
  });

  it.each(containers.map((entry) => [entry.label, entry]))(
    '%s should run as non-root with a read-only root filesystem, no privilege escalation and no capabilities',
    (_label, { workload, container }) => {
      const pod = workload.spec?.template?.spec?.securityContext ?? {};
      const own = container.securityContext ?? {};
      expect({
        runAsNonRoot: own.runAsNonRoot ?? pod.runAsNonRoot,
        runAsRoot: (own.runAsUser ?? pod.runAsUser) === 0,
        privileged: own.privileged ?? false,
        allowPrivilegeEscalation: own.allowPrivilegeEscalation,
        readOnlyRootFilesystem: own.readOnlyRootFilesystem,
        dropsAll: own.capabilities?.drop?.includes('ALL') ?? false,
        added: own.capabilities?.add ?? [],
      }).toEqual({
        runAsNonRoot: true,
        runAsRoot: false,
        privileged: false,
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        dropsAll: true,
        added: [],
      });
    },
  );

  it.each(containers.map((entry) => [entry.label, entry]))(
    '%s should request and limit cpu and memory',
    (_label, { container }) => {
      const { requests, limits } = container.resources ?? {};
      expect(
        [requests?.cpu, requests?.memory, limits?.cpu, limits?.memory].map(
          (value) => value !== undefined && value !== '',
        ),
      ).toEqual([true, true, true, true]);
    },
  );

  it.each(containers.map((entry) => [entry.label, entry]))(
    '%s should take secret variables from a Secret only',
    (_label, { container }) => {
      const literal = (container.env ?? [])
        .filter(
          (variable) =>
            SECRET_VARIABLES.includes(variable.name) ||
            /SECRET|PASSWORD|PRIVATE_KEY|TOKEN/.test(variable.name),
        )
        .filter(
          (variable) =>
            variable.value !== undefined ||
            !variable.valueFrom?.secretKeyRef?.name ||
            !variable.valueFrom.secretKeyRef.key,
        )
        .map((variable) => variable.name);
      const fromConfigMaps = (container.envFrom ?? []).flatMap((source) =>
        Object.keys(configMapData(objects, source.configMapRef?.name) ?? {}).filter((key) =>
          SECRET_VARIABLES.includes(key),
        ),
      );
      expect([...literal, ...fromConfigMaps]).toEqual([]);
    },
  );

  it.each(containers.map((entry) => [entry.label, entry]))(
    '%s should load only ConfigMaps that exist and Secrets that are documented',
    (_label, { container }) => {
      const secrets = documentedSecrets();
      const missingConfigMaps = (container.envFrom ?? [])
        .map((source) => source.configMapRef?.name)
        .filter((name): name is string => name !== undefined && !configMapData(objects, name));
      const undocumented = [
        ...(container.envFrom ?? []).flatMap((source) =>
          source.secretRef?.name && !secrets.has(source.secretRef.name)
            ? [source.secretRef.name]
            : [],
        ),
        ...(container.env ?? []).flatMap((variable) => {
          const ref = variable.valueFrom?.secretKeyRef;
          return ref && !secrets.get(ref.name ?? '')?.includes(ref.key ?? '')
            ? [`${ref.name}.${ref.key}`]
            : [];
        }),
      ];
      expect({ missingConfigMaps, undocumented }).toEqual({
        missingConfigMaps: [],
        undocumented: [],
      });
    },
  );
});

describe('NetworkPolicies', () => {
  const gatewayLabels = podLabels(deploymentOf(GATEWAY));
  const otherPods = allWorkloads
    .filter(({ object }) => object !== deploymentOf(GATEWAY))
    .map(({ object }) => object);

  it.each(INTERNAL_SERVICES)(
    'should let only the gateway reach %s, and only on its port',
    (service) => {
      const { port } = SERVICES[service];
      const container = serverContainer(service);
      const selecting = policies.filter((policy) =>
        selectorMatches(policy.spec?.podSelector ?? {}, podLabels(deploymentOf(service))),
      );
      expect(
        selecting.some((policy) => (policy.spec?.policyTypes ?? ['Ingress']).includes('Ingress')),
      ).toBe(true);

      const problems: string[] = [];
      let gatewayAllowed = false;
      for (const policy of selecting) {
        for (const [index, rule] of (policy.spec?.ingress ?? []).entries()) {
          const where = `${policy.metadata?.name} ingress[${index}]`;
          if (!rule.from?.length) {
            problems.push(`${where} admits every source`);
          }
          for (const peer of rule.from ?? []) {
            if (peer.namespaceSelector || peer.ipBlock || !peer.podSelector) {
              problems.push(`${where} admits sources outside the gateway's pods`);
            } else if (!selectorMatches(peer.podSelector, gatewayLabels)) {
              problems.push(`${where} admits pods that are not the gateway's`);
            } else {
              const others = otherPods.filter((other) =>
                selectorMatches(peer.podSelector, podLabels(other)),
              );
              problems.push(
                ...others.map((other) => `${where} also admits ${workloadName(other)}`),
              );
            }
          }
          const ports = (rule.ports ?? []).map((candidate) =>
            resolvePort(candidate.port, container),
          );
          if (!ports.length || ports.some((candidate) => candidate !== port)) {
            problems.push(
              `${where} opens ports ${ports.length ? ports.join(', ') : 'all'} instead of ${port}`,
            );
          }
          gatewayAllowed ||=
            (rule.from ?? []).some((peer) => selectorMatches(peer.podSelector, gatewayLabels)) &&
            ports.includes(port);
        }
      }
      expect(problems).toEqual([]);
      expect(gatewayAllowed).toBe(true);
    },
  );

  it('should let traffic reach the gateway on its port', () => {
    const port = SERVICES[GATEWAY].port;
    const open = policies
      .filter((policy) => selectorMatches(policy.spec?.podSelector ?? {}, gatewayLabels))
      .flatMap((policy) => policy.spec?.ingress ?? [])
      .some(
        (rule) =>
          !rule.ports?.length ||
          rule.ports.some(
            (candidate) => resolvePort(candidate.port, serverContainer(GATEWAY)) === port,
          ),
      );
    expect(open).toBe(true);
  });
});

describe('migration Jobs', () => {
  const owners = SERVICE_NAMES.filter((service) => SERVICES[service].ownsSchema);

  it.each(owners)(
    'should run the %s migrations with its image and its database secret',
    (service) => {
      const jobs = objectsOfKind<Workload>(objects, 'Job')
        .map(({ object }) => object)
        .filter((job) =>
          containersOf(job).some((container) =>
            [...(container.command ?? []), ...(container.args ?? [])].includes(
              `apps/${service}/dist/migrate.js`,
            ),
          ),
        );
      expect(jobs.map((job) => job.metadata?.name)).toHaveLength(1);
      const [job] = jobs;
      const container = containersOf(job).find((candidate) =>
        candidate.image?.startsWith(`agp/${service}:`),
      );
      expect(container?.image).toBeDefined();
      expect(['Never', 'OnFailure']).toContain(job.spec?.template?.spec?.restartPolicy);
      expect(
        container?.env?.find((variable) => variable.name === 'DATABASE_URL')?.valueFrom
          ?.secretKeyRef?.name,
      ).toBeDefined();
    },
  );

  it.each(owners)(
    'should keep the %s migration pods out of its Service and PodDisruptionBudget',
    (service) => {
      const jobs = objectsOfKind<Workload>(objects, 'Job').map(({ object }) => object);
      const selectors = [
        findObject<Service>(objects, 'Service', service)?.spec?.selector,
        ...objectsOfKind<PodDisruptionBudget>(objects, 'PodDisruptionBudget').map(
          ({ object }) => object.spec?.selector,
        ),
      ];
      const caught = jobs
        .filter((job) => selectors.some((selector) => selectorMatches(selector, podLabels(job))))
        .map(workloadName);
      expect(caught).toEqual([]);
    },
  );
});
