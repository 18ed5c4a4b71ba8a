// The parts of the Kubernetes objects the tests read. Everything is optional: a manifest that
// lacks a field must fail an assertion, not the type check.

export type Labels = Record<string, string>;

export interface Metadata {
  name?: string;
  namespace?: string;
  labels?: Labels;
  annotations?: Record<string, string>;
}

export interface K8sObject {
  apiVersion?: string;
  kind?: string;
  metadata?: Metadata;
}

export interface LabelSelector {
  matchLabels?: Labels;
  matchExpressions?: unknown[];
}

export interface ProbeHandler {
  httpGet?: { path?: string; port?: number | string };
  tcpSocket?: unknown;
  exec?: unknown;
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    secretKeyRef?: { name?: string; key?: string };
    configMapKeyRef?: { name?: string; key?: string };
  };
}

export interface EnvFromSource {
  configMapRef?: { name?: string };
  secretRef?: { name?: string };
  prefix?: string;
}

export interface Quantities {
  cpu?: string | number;
  memory?: string | number;
}

export interface SecurityContext {
  runAsNonRoot?: boolean;
  runAsUser?: number;
  allowPrivilegeEscalation?: boolean;
  privileged?: boolean;
  readOnlyRootFilesystem?: boolean;
  capabilities?: { drop?: string[]; add?: string[] };
}

export interface Container {
  name?: string;
  image?: string;
  command?: string[];
  args?: string[];
  ports?: { name?: string; containerPort?: number }[];
  env?: EnvVar[];
  envFrom?: EnvFromSource[];
  livenessProbe?: ProbeHandler;
  readinessProbe?: ProbeHandler;
  resources?: { requests?: Quantities; limits?: Quantities };
  securityContext?: SecurityContext;
}

export interface PodTemplate {
  metadata?: Metadata;
  spec?: {
    securityContext?: SecurityContext;
    containers?: Container[];
    initContainers?: Container[];
    restartPolicy?: string;
  };
}

export interface Workload extends K8sObject {
  spec?: { selector?: LabelSelector; template?: PodTemplate };
}

export interface Service extends K8sObject {
  spec?: {
    selector?: Labels;
    ports?: { name?: string; port?: number; targetPort?: number | string }[];
  };
}

export interface HorizontalPodAutoscaler extends K8sObject {
  spec?: {
    scaleTargetRef?: { apiVersion?: string; kind?: string; name?: string };
    minReplicas?: number;
    maxReplicas?: number;
    metrics?: { type?: string; resource?: { name?: string; target?: { type?: string } } }[];
  };
}

export interface PodDisruptionBudget extends K8sObject {
  spec?: {
    selector?: LabelSelector;
    minAvailable?: number | string;
    maxUnavailable?: number | string;
  };
}

export interface NetworkPolicyPeer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: unknown;
}

export interface NetworkPolicy extends K8sObject {
  spec?: {
    podSelector?: LabelSelector;
    policyTypes?: string[];
    ingress?: {
      from?: NetworkPolicyPeer[];
      ports?: { port?: number | string; protocol?: string }[];
    }[];
  };
}

export interface ConfigMap extends K8sObject {
  data?: Record<string, string>;
}

/** True when the selector's labels are all on the pod (an empty selector matches every pod). */
export function selectorMatches(
  selector: LabelSelector | Labels | undefined,
  labels: Labels,
): boolean {
  if (!selector) {
    return false;
  }
  const matchLabels = isLabelSelector(selector) ? (selector.matchLabels ?? {}) : selector;
  return Object.entries(matchLabels).every(([key, value]) => labels[key] === value);
}

function isLabelSelector(selector: LabelSelector | Labels): selector is LabelSelector {
  return 'matchLabels' in selector || 'matchExpressions' in selector;
}

/** Every container of a pod template, init containers included. */
export function containersOf(workload: Workload): Container[] {
  const spec = workload.spec?.template?.spec;
  return [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])];
}

/** A probe or Service port (number or container port name) → the container port number. */
export function resolvePort(
  port: number | string | undefined,
  container: Container,
): number | undefined {
  if (typeof port === 'number') {
    return port;
  }
  return container.ports?.find((candidate) => candidate.name === port)?.containerPort;
}
