import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadAll } from 'js-yaml';

/** Helpers of the deployment checks: render the kustomize overlays, find objects, resolve a container's environment. */

export const ROOT = join(__dirname, '..', '..');
export const K8S = join(ROOT, 'deploy', 'k8s');

export type K8sObject = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; labels?: Record<string, string> }; [key: string]: any };

export function overlays(): string[] {
  return readdirSync(join(K8S, 'overlays')).filter((name) => existsSync(join(K8S, 'overlays', name, 'kustomization.yaml')));
}

/** Whether kubectl (with its built-in kustomize) can run here. */
export function kubectlAvailable(): boolean {
  const probe = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' });
  return probe.status === 0;
}

/** `kubectl kustomize <dir>`, parsed: every object the overlay renders. */
export function render(dir: string): K8sObject[] {
  const result = spawnSync('kubectl', ['kustomize', dir], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`kubectl kustomize ${dir} failed: ${result.stderr}`);
  return (loadAll(result.stdout) as Array<K8sObject | null>).filter((doc): doc is K8sObject => doc !== null);
}

export function ofKind(objects: K8sObject[], kind: string): K8sObject[] {
  return objects.filter((object) => object.kind === kind);
}

export function named(objects: K8sObject[], kind: string, name: string): K8sObject | undefined {
  return objects.find((object) => object.kind === kind && object.metadata.name === name);
}

/** Where one variable of a container comes from. */
export type EnvSource =
  { from: 'value'; value: string } | { from: 'configMap'; configMap: string; value: string } | { from: 'secret'; secret: string; key: string; optional: boolean };

/**
 * A container's environment as the kubelet builds it: `envFrom` ConfigMaps first, then `env`
 * entries (later ones win). ConfigMap values are read from the rendered ConfigMaps; a reference
 * to a ConfigMap the overlay does not render is an error.
 */
export function containerEnv(objects: K8sObject[], container: any): Map<string, EnvSource> {
  const env = new Map<string, EnvSource>();
  const configMap = (name: string): Record<string, string> => {
    const found = named(objects, 'ConfigMap', name);
    if (!found) throw new Error(`container ${container.name} refers to ConfigMap ${name}, which the overlay does not render`);
    return found.data ?? {};
  };
  for (const source of container.envFrom ?? []) {
    if (source.secretRef) throw new Error(`container ${container.name} takes a whole Secret (${source.secretRef.name}); name each variable instead`);
    for (const [name, value] of Object.entries(configMap(source.configMapRef.name)))
      env.set(name, { from: 'configMap', configMap: source.configMapRef.name, value: String(value) });
  }
  for (const entry of container.env ?? []) {
    if (entry.value !== undefined) env.set(entry.name, { from: 'value', value: String(entry.value) });
    else if (entry.valueFrom?.configMapKeyRef) {
      const ref = entry.valueFrom.configMapKeyRef;
      env.set(entry.name, { from: 'configMap', configMap: ref.name, value: String(configMap(ref.name)[ref.key]) });
    } else if (entry.valueFrom?.secretKeyRef) {
      const ref = entry.valueFrom.secretKeyRef;
      env.set(entry.name, { from: 'secret', secret: ref.name, key: ref.key, optional: ref.optional === true });
    } else {
      throw new Error(`container ${container.name}: variable ${entry.name} has no value this check understands`);
    }
  }
  return env;
}

/* eslint-disable @typescript-eslint/no-require-imports */
/** The schema-checked model class of an object's kind. */
export function modelOf(object: K8sObject): { new (data: object): { validate(): void } } | undefined {
  const [group, version] = object.apiVersion.includes('/') ? object.apiVersion.split('/') : ['', object.apiVersion];
  if (group === 'postgresql.cnpg.io') return cloudNativePgModel(object.kind);
  const module = group === 'keda.sh' ? require(`@kubernetes-models/keda/keda.sh/${version}`) : require(`kubernetes-models/${group ? `${group}/` : ''}${version}`);
  return module[object.kind];
}

/**
 * CloudNativePG's kinds have no published model package: checked against the part of the
 * operator's CRDs (postgresql.cnpg.io/v1) these manifests use, unknown fields refused, so a typo
 * fails here rather than at apply time.
 */
function cloudNativePgModel(kind: string): { new (data: object): { validate(): void } } | undefined {
  const objectSchema = (properties: Record<string, object>, required: string[] = []): object => ({ type: 'object', properties, required, additionalProperties: false });
  const labels = { type: 'object', additionalProperties: { type: 'string' } };
  const specs: Record<string, object> = {
    Cluster: objectSchema(
      {
        instances: { type: 'integer', minimum: 1 },
        inheritedMetadata: objectSchema({ labels }),
        bootstrap: objectSchema({ initdb: objectSchema({ database: { type: 'string' }, owner: { type: 'string' } }) }),
        storage: objectSchema({ size: { type: 'string', pattern: '^[0-9]+(Mi|Gi|Ti)$' } }, ['size']),
      },
      ['instances', 'storage'],
    ),
    Pooler: objectSchema(
      {
        cluster: objectSchema({ name: { type: 'string' } }, ['name']),
        instances: { type: 'integer', minimum: 1 },
        type: { enum: ['rw', 'ro'] },
        pgbouncer: objectSchema({ poolMode: { enum: ['session', 'transaction'] } }, ['poolMode']),
        template: objectSchema({ metadata: objectSchema({ labels }), spec: { type: 'object' } }),
      },
      ['cluster', 'pgbouncer'],
    ),
  };
  if (!specs[kind]) return undefined;
  const Ajv = require('ajv').default;
  const validate = new Ajv({ allErrors: true }).compile({
    type: 'object',
    properties: { apiVersion: { const: 'postgresql.cnpg.io/v1' }, kind: { const: kind }, metadata: { type: 'object' }, spec: specs[kind] },
    required: ['apiVersion', 'kind', 'metadata', 'spec'],
  });
  return class {
    constructor(private readonly data: object) {}
    validate(): void {
      if (!validate(this.data)) throw new Error(JSON.stringify(validate.errors));
    }
  };
}
