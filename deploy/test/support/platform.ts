import type { ConfigMap, K8sObject, Workload } from './k8s';
import { resolveKustomization } from './kustomize';
import { isRecord, readYaml } from './repo';

export interface Located<T extends K8sObject = K8sObject> {
  file: string;
  object: T;
}

/** Every object the k8s/ kustomization includes, with the file it comes from. */
export function platformObjects(): Located[] {
  const { resourceFiles } = resolveKustomization('k8s');
  return resourceFiles.flatMap((file) =>
    readYaml(file)
      .documents.filter((document) => isRecord(document.content))
      .map((document) => ({ file, object: document.content as K8sObject })),
  );
}

export function objectsOfKind<T extends K8sObject>(objects: Located[], kind: string): Located<T>[] {
  return objects.filter((located): located is Located<T> => located.object.kind === kind);
}

export function findObject<T extends K8sObject>(
  objects: Located[],
  kind: string,
  name: string,
): T | undefined {
  return objectsOfKind<T>(objects, kind).find((located) => located.object.metadata?.name === name)
    ?.object;
}

/** Deployments, StatefulSets, DaemonSets and Jobs: everything that runs a pod template. */
export function workloads(objects: Located[]): Located<Workload>[] {
  const kinds = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'Job']);
  return objects.filter((located): located is Located<Workload> =>
    kinds.has(located.object.kind ?? ''),
  );
}

export function configMapData(
  objects: Located[],
  name: string | undefined,
): Record<string, string> | undefined {
  return name === undefined ? undefined : findObject<ConfigMap>(objects, 'ConfigMap', name)?.data;
}
