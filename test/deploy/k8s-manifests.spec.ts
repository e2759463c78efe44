import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { load, loadAll } from 'js-yaml';
import { CARDS_WORKER_CONSUMER, WEBHOOKS_CONSUMER } from '@paykit/contracts';
import { databaseUrlVariable, Env, loadRuntimeConfig, METRICS, READINESS_CHECK_TIMEOUT_MS, RuntimeConfig, SERVICE_NAMES, ServiceName, variablesRead } from '@paykit/runtime';
import { loadExternalAccountsConfig } from '../../apps/external-accounts/src/config/external-accounts-config';
import { loadGatewayConfig } from '../../apps/gateway/src/config/gateway-config';
import { loadPaymentsConfig } from '../../apps/payments/src/config/payments-config';
import { loadWalletAuthConfig } from '../../apps/wallet-auth/src/config/wallet-auth-config';
import { loadWebhooksConfig } from '../../apps/webhooks/src/config/webhooks-config';
import { containerEnv, EnvSource, K8S, K8sObject, kubectlAvailable, modelOf, named, ofKind, overlays, render, ROOT } from './kustomize-render';

/**
 * The Kubernetes deployment (deploy/k8s), checked offline: every overlay renders with
 * `kubectl kustomize`, every object is valid against the Kubernetes schemas (kubernetes-models,
 * KEDA's from @kubernetes-models/keda), every variable an app reads is provided (the list comes
 * from the apps' own config loaders), and every container has its image, probes, resources and a
 * locked-down security context. Without kubectl the suite is skipped loudly; under CI it fails.
 */

/** Every config loader an app runs at start, as its main.ts and modules call them. */
const CONFIG_LOADERS: Record<ServiceName, Array<(env: Env) => unknown>> = {
  gateway: [(env) => loadRuntimeConfig(env, 'distributed', ['gateway']), (env) => loadGatewayConfig(env)],
  customers: [(env) => loadRuntimeConfig(env, 'distributed', ['customers'])],
  'external-accounts': [(env) => loadRuntimeConfig(env, 'distributed', ['external-accounts']), (env) => loadExternalAccountsConfig(env)],
  payments: [(env) => loadRuntimeConfig(env, 'distributed', ['payments']), (env) => loadPaymentsConfig(env, runtimeOf(env).deployment)],
  'wallet-auth': [(env) => loadRuntimeConfig(env, 'distributed', ['wallet-auth']), (env) => loadWalletAuthConfig(env, runtimeOf(env).deployment)],
  cards: [(env) => loadRuntimeConfig(env, 'distributed', ['cards'])],
  webhooks: [(env) => loadRuntimeConfig(env, 'distributed', ['webhooks']), (env) => loadWebhooksConfig(env, runtimeOf(env))],
};
/** The files those loaders live in: a new EnvReader elsewhere must be added above. */
const CONFIG_FILES = [
  'apps/external-accounts/src/config/external-accounts-config.ts',
  'apps/gateway/src/config/gateway-config.ts',
  'apps/payments/src/config/payments-config.ts',
  'apps/wallet-auth/src/config/wallet-auth-config.ts',
  'apps/webhooks/src/config/webhooks-config.ts',
  'libs/runtime/src/config/runtime-config.ts',
];

/** What the loaders that take the runtime config use of it (read by loadRuntimeConfig, already counted). */
function runtimeOf(env: Env): RuntimeConfig {
  return { deployment: env.DEPLOYMENT_ENV === 'production' ? 'production' : 'sandbox', sandboxTimeScale: Number(env.SANDBOX_TIME_SCALE ?? 1) } as RuntimeConfig;
}

/** Every variable the app's loaders ask for, with no settings and with the given ones (some reads depend on others). */
function variablesOf(app: ServiceName, env: Env = {}): Set<string> {
  const names = new Set<string>();
  for (const loader of CONFIG_LOADERS[app]) for (const given of [{}, env]) for (const name of variablesRead(() => loader(given))) names.add(name);
  return names;
}

/** Well-formed stand-ins for what Secrets hold (the repository holds no secret value). */
function secretStandIn(name: string): string {
  if (name.endsWith('_DATABASE_URL')) return 'postgresql://app:secret@db.example:5432/app';
  if (name === 'WALLET_AUTH_ENCLAVE_PRIVATE_KEY' || name === 'WEBHOOK_KEY_ENCRYPTION_KEY' || name === 'PAYMENTS_KEY_ENCRYPTION_KEY') return 'ab'.repeat(32);
  if (name === 'SANDBOX_TOKEN_ID') return 'tok_sandbox00001';
  if (name === 'SANDBOX_TOKEN_SECRET') return 'x'.repeat(43);
  throw new Error(`no stand-in for secret variable ${name}`);
}

const SECRET_LIKE = /(_DATABASE_URL|_KEY|SECRET|TOKEN_ID|PASSWORD)$/;

const ready = kubectlAvailable();
if (!ready) {
  if (process.env.CI === 'true') {
    describe('Kubernetes manifests', () => {
      it('needs kubectl (with kustomize) under CI', () => {
        throw new Error('kubectl is not installed: the Kubernetes manifests cannot be rendered and checked');
      });
    });
  } else {
    process.stderr.write('\n!! SKIPPED the Kubernetes manifest checks: kubectl (with kustomize) is not installed.\n\n');
  }
}

(ready ? describe : describe.skip)('Kubernetes manifests (deploy/k8s)', () => {
  const rendered = new Map<string, K8sObject[]>();
  beforeAll(() => {
    for (const overlay of overlays()) rendered.set(overlay, render(join(K8S, 'overlays', overlay)));
  });

  it('has the sandbox and production overlays (and production with KEDA), each rendering', () => {
    expect(overlays()).toEqual(expect.arrayContaining(['sandbox', 'production', 'production-keda']));
    for (const objects of rendered.values()) expect(objects.length).toBeGreaterThan(0);
  });

  it.each(overlays())('%s: every object is valid against its Kubernetes schema', (overlay) => {
    const problems: string[] = [];
    for (const object of rendered.get(overlay)!) {
      const Model = modelOf(object);
      if (!Model) {
        problems.push(`${object.apiVersion} ${object.kind} ${object.metadata.name}: no schema for this kind`);
        continue;
      }
      try {
        new Model(object).validate();
      } catch (error) {
        problems.push(`${object.kind} ${object.metadata.name}: ${(error as Error).message}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it.each(overlays())('%s: one Deployment, Service and PodDisruptionBudget per app, in one namespace, and no Secret', (overlay) => {
    const objects = rendered.get(overlay)!;
    for (const kind of ['Deployment', 'Service', 'PodDisruptionBudget']) {
      expect(
        ofKind(objects, kind)
          .map((object) => object.metadata.name)
          .sort(),
      ).toEqual([...SERVICE_NAMES].sort());
    }
    for (const budget of ofKind(objects, 'PodDisruptionBudget')) {
      expect(budget.spec.selector.matchLabels).toEqual({ 'app.kubernetes.io/name': budget.metadata.name });
      expect(budget.spec.maxUnavailable ?? 0).toBeGreaterThan(0);
    }
    const namespaces = ofKind(objects, 'Namespace');
    expect(namespaces).toHaveLength(1);
    expect(namespaces[0].metadata.labels?.['pod-security.kubernetes.io/enforce']).toBe('restricted');
    expect(objects.filter((object) => object.kind !== 'Namespace').every((object) => object.metadata.namespace === namespaces[0].metadata.name)).toBe(true);
    expect(ofKind(objects, 'Secret')).toEqual([]);
  });

  it.each(overlays())('%s: every container has its image, its app, probes, resources and a locked-down security context', (overlay) => {
    const objects = rendered.get(overlay)!;
    for (const deployment of ofKind(objects, 'Deployment')) {
      const app = deployment.metadata.name as ServiceName;
      const pod = deployment.spec.template.spec;
      expect(deployment.spec.selector.matchLabels).toEqual({ 'app.kubernetes.io/name': app });
      expect(pod.automountServiceAccountToken).toBe(false);
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
      expect(pod.securityContext.runAsUser).toBeGreaterThan(0);
      expect(pod.containers).toHaveLength(1);
      expect(pod.initContainers ?? []).toEqual([]);
      const container = pod.containers[0];
      const where = `${overlay} ${app}`;
      // One image for all apps, from a registry, at a fixed version; the argument picks the app.
      expect({ where, image: container.image }).toEqual({ where, image: expect.stringMatching(/^[a-z0-9.-]+(:[0-9]+)?\/[a-z0-9./-]+:[0-9][A-Za-z0-9._-]*$/) });
      expect(container.args).toEqual([app]);
      expect(container.command).toBeUndefined();
      const env = containerEnv(objects, container);
      const healthPort = Number(valueOf(env.get('HEALTH_PORT')));
      expect(container.ports).toEqual(expect.arrayContaining([{ name: 'health', containerPort: healthPort }]));
      const timeoutMs = READINESS_CHECK_TIMEOUT_MS;
      for (const [probe, path] of [
        ['livenessProbe', '/livez'],
        ['readinessProbe', '/readyz'],
      ] as const) {
        expect({ where, probe: container[probe]?.httpGet }).toEqual({ where, probe: { path, port: 'health' } });
        // The probe waits longer than the process's own checks take to give up.
        expect(container[probe].timeoutSeconds * 1000).toBeGreaterThan(timeoutMs);
      }
      for (const kind of ['requests', 'limits'])
        for (const resource of ['cpu', 'memory'])
          expect({ where, kind, resource, set: Boolean(container.resources?.[kind]?.[resource]) }).toEqual({ where, kind, resource, set: true });
      expect(container.securityContext).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, runAsNonRoot: true, capabilities: { drop: ['ALL'] } });
      expect(container.securityContext.privileged ?? false).toBe(false);
      // Graceful termination: a preStop pause, then time for the shutdown (a call in flight may
      // take one RPC timeout; the outbox relay's and scheduler's pass, consumers giving back).
      const preStop = container.lifecycle?.preStop?.exec?.command as string[] | undefined;
      expect(preStop?.[0]).toBe('sleep');
      const pauseSeconds = Number(preStop![1]);
      const rpcTimeoutSeconds = Number(valueOf(env.get('RPC_TIMEOUT_MS'))) / 1000;
      expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(pauseSeconds + rpcTimeoutSeconds + 10);
    }
  });

  it.each(overlays())('%s: every variable each app reads is provided, secrets from Secrets, and the values pass the apps own checks', (overlay) => {
    const objects = rendered.get(overlay)!;
    for (const app of SERVICE_NAMES) {
      const container = named(objects, 'Deployment', app)!.spec.template.spec.containers[0];
      const env = containerEnv(objects, container);
      const values: Env = {};
      for (const [name, source] of env) values[name] = source.from === 'secret' ? secretStandIn(name) : source.value;
      const read = variablesOf(app, values);
      expect({ app, missing: [...read].filter((name) => !env.has(name)) }).toEqual({ app, missing: [] });
      // Nothing set that the app does not read (a typo would go unnoticed otherwise).
      expect({ app, unread: [...env.keys()].filter((name) => !read.has(name)) }).toEqual({ app, unread: [] });
      // Secret-like variables come from Secrets, and each app gets its own database's URL only.
      for (const [name, source] of env) if (SECRET_LIKE.test(name)) expect({ app, name, from: source.from }).toEqual({ app, name, from: 'secret' });
      expect([...env.keys()].filter((name) => name.endsWith('_DATABASE_URL'))).toEqual([databaseUrlVariable(app)]);
      // The apps' own validation accepts the settings (with well-formed stand-ins for the Secrets).
      for (const loader of CONFIG_LOADERS[app]) expect(() => loader(values)).not.toThrow();
    }
  });

  it('reads the list of variables from the code: every config loader is checked above', () => {
    const files = execFileSync('grep', ['-rl', '--include=*.ts', 'new EnvReader(', 'apps', 'libs'], { cwd: ROOT, encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter((file) => !file.endsWith('.spec.ts'));
    expect(files.sort()).toEqual([...CONFIG_FILES].sort());
    // And that list is real: the gateway reads its listener, webhooks and payments their keys, every app NATS and its database.
    expect([...variablesOf('gateway')]).toEqual(expect.arrayContaining(['PORT', 'HOST', 'NATS_URL', 'GATEWAY_DATABASE_URL', 'HEALTH_PORT']));
    expect([...variablesOf('webhooks')]).toEqual(expect.arrayContaining(['WEBHOOK_KEY_ENCRYPTION_KEY', 'WEBHOOKS_DATABASE_URL']));
    expect([...variablesOf('payments')]).toEqual(expect.arrayContaining(['PAYMENTS_KEY_ENCRYPTION_KEY', 'PAYMENTS_DATABASE_URL']));
  });

  it('sandbox: one replica of each app, sandbox deployment, keys optional', () => {
    const objects = rendered.get('sandbox')!;
    for (const deployment of ofKind(objects, 'Deployment'))
      expect({ app: deployment.metadata.name, replicas: deployment.spec.replicas }).toEqual({ app: deployment.metadata.name, replicas: 1 });
    expect(ofKind(objects, 'HorizontalPodAutoscaler')).toEqual([]);
    const env = containerEnv(objects, named(objects, 'Deployment', 'webhooks')!.spec.template.spec.containers[0]);
    expect(valueOf(env.get('DEPLOYMENT_ENV'))).toBe('sandbox');
    expect(env.get('WEBHOOK_KEY_ENCRYPTION_KEY')).toMatchObject({ from: 'secret', optional: true });
    const payments = containerEnv(objects, named(objects, 'Deployment', 'payments')!.spec.template.spec.containers[0]);
    expect(payments.get('PAYMENTS_KEY_ENCRYPTION_KEY')).toMatchObject({ from: 'secret', optional: true });
  });

  it.each(['production', 'production-keda'])('%s: DEPLOYMENT_ENV=production, several replicas of every app, the enclave and sealing keys required from a Secret', (overlay) => {
    const objects = rendered.get(overlay)!;
    const scalers = [...ofKind(objects, 'HorizontalPodAutoscaler'), ...ofKind(objects, 'ScaledObject')];
    for (const deployment of ofKind(objects, 'Deployment')) {
      const app = deployment.metadata.name;
      const scaler = scalers.find((object) => object.spec.scaleTargetRef.name === app);
      const least = scaler ? (scaler.spec.minReplicas ?? scaler.spec.minReplicaCount) : deployment.spec.replicas;
      expect({ app, least }).toEqual({ app, least: expect.any(Number) });
      expect(least).toBeGreaterThanOrEqual(2);
      // A scaled Deployment leaves its replica count to its autoscaler.
      if (scaler) expect(deployment.spec.replicas).toBeUndefined();
      expect(valueOf(containerEnv(objects, deployment.spec.template.spec.containers[0]).get('DEPLOYMENT_ENV'))).toBe('production');
    }
    const keys: Array<[ServiceName, string]> = [
      ['wallet-auth', 'WALLET_AUTH_ENCLAVE_PRIVATE_KEY'],
      ['webhooks', 'WEBHOOK_KEY_ENCRYPTION_KEY'],
      ['payments', 'PAYMENTS_KEY_ENCRYPTION_KEY'],
    ];
    for (const [app, variable] of keys) {
      expect(containerEnv(objects, named(objects, 'Deployment', app)!.spec.template.spec.containers[0]).get(variable)).toEqual({
        from: 'secret',
        secret: 'paykit-keys',
        key: variable,
        optional: false,
      });
    }
  });

  it.each(['production', 'production-keda'])(
    '%s: three copies of every event and consumer position, and a CloudNativePG cluster of three behind a session pooler per app',
    (overlay) => {
      const objects = rendered.get(overlay)!;
      for (const app of SERVICE_NAMES) {
        const env = containerEnv(objects, named(objects, 'Deployment', app)!.spec.template.spec.containers[0]);
        expect({ app, replicas: valueOf(env.get('NATS_STREAM_REPLICAS')), consumers: valueOf(env.get('NATS_CONSUMER_REPLICAS')) }).toEqual({ app, replicas: '3', consumers: '3' });
        expect(named(objects, 'Cluster', `${app}-db`)?.spec.instances).toBe(3);
        const pooler = named(objects, 'Pooler', `${app}-db-pooler`)!;
        expect(pooler.spec).toMatchObject({ cluster: { name: `${app}-db` }, type: 'rw', pgbouncer: { poolMode: 'session' } });
        // The pooler's pods are what the app's NetworkPolicy lets it reach.
        expect(pooler.spec.template.metadata.labels).toEqual({ 'paykit.dev/database': app });
      }
      // The official NATS chart's values run the cluster of three those replicas need.
      const nats = load(readFileSync(join(K8S, 'examples', 'nats-values.yaml'), 'utf8')) as any;
      expect(nats.config.cluster).toMatchObject({ enabled: true, replicas: 3 });
    },
  );

  it('sandbox: one copy of the event stream (one NATS server)', () => {
    const env = containerEnv(rendered.get('sandbox')!, named(rendered.get('sandbox')!, 'Deployment', 'cards')!.spec.template.spec.containers[0]);
    expect(valueOf(env.get('NATS_STREAM_REPLICAS'))).toBe('1');
    expect(ofKind(rendered.get('sandbox')!, 'Pooler')).toEqual([]);
  });

  it('production: cards and webhooks scale on CPU (HorizontalPodAutoscaler)', () => {
    const objects = rendered.get('production')!;
    for (const app of ['cards', 'webhooks']) {
      const hpa = named(objects, 'HorizontalPodAutoscaler', app)!;
      expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: app });
      expect(hpa.spec.metrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: expect.any(Number) } } }]);
    }
  });

  it('production-keda: cards and webhooks scale on CPU, their JetStream consumer lag and their backlog (KEDA, from the apps metrics), with no HPA of their own', () => {
    const objects = rendered.get('production-keda')!;
    expect(ofKind(objects, 'HorizontalPodAutoscaler')).toEqual([]);
    for (const [app, consumer, backlog] of [
      ['cards', CARDS_WORKER_CONSUMER, 'paykit_scheduled_jobs_due'],
      ['webhooks', WEBHOOKS_CONSUMER, 'paykit_webhook_deliveries_due'],
    ]) {
      const scaled = named(objects, 'ScaledObject', app)!;
      expect(scaled.spec.scaleTargetRef.name).toBe(app);
      expect(scaled.spec.triggers.map((trigger: { type: string }) => trigger.type).sort()).toEqual(['cpu', 'prometheus', 'prometheus']);
      const queries = scaled.spec.triggers
        .filter((trigger: { type: string }) => trigger.type === 'prometheus')
        .map((trigger: { metadata: { query: string; threshold: string; serverAddress: string } }) => {
          expect(Number(trigger.metadata.threshold)).toBeGreaterThan(0);
          expect(trigger.metadata.serverAddress).toMatch(/^http:\/\/[a-z0-9.-]+:9090$/);
          return trigger.metadata.query;
        });
      // The lag of the consumer the app creates, and its backlog; every name one the apps serve.
      expect(queries).toEqual([`max(paykit_consumer_pending_messages{service="${app}",consumer="${consumer}"})`, expect.stringContaining(`max(${backlog}`)]);
      for (const query of queries) expect(Object.keys(METRICS)).toContain(/max\((\w+)/.exec(query)![1]);
    }
    const runtime = containerEnv(objects, named(objects, 'Deployment', 'cards')!.spec.template.spec.containers[0]);
    expect(valueOf(runtime.get('NATS_NAMESPACE'))).toBe('');
  });

  it.each(overlays())('%s: every pod is scraped for its metrics on its probe port, and only Prometheus may reach that port', (overlay) => {
    const objects = rendered.get(overlay)!;
    for (const deployment of ofKind(objects, 'Deployment')) {
      const container = deployment.spec.template.spec.containers[0];
      const port = container.ports.find((entry: { name: string }) => entry.name === 'health').containerPort;
      expect(deployment.spec.template.metadata.annotations).toEqual({ 'prometheus.io/scrape': 'true', 'prometheus.io/port': String(port), 'prometheus.io/path': '/metrics' });
    }
    const metrics = named(objects, 'NetworkPolicy', 'paykit-metrics-ingress')!;
    expect(metrics.spec.ingress).toEqual([
      { from: [{ namespaceSelector: {}, podSelector: { matchLabels: { 'app.kubernetes.io/name': 'prometheus' } } }], ports: [{ port: 'health', protocol: 'TCP' }] },
    ]);
  });

  it.each(overlays())('%s: only the gateway takes traffic; each app reaches NATS, its own database and DNS', (overlay) => {
    const policies = ofKind(rendered.get(overlay)!, 'NetworkPolicy');
    const deny = policies.find((policy) => policy.metadata.name === 'paykit-default-deny')!;
    expect(deny.spec).toEqual({ podSelector: { matchLabels: { 'app.kubernetes.io/part-of': 'paykit' } }, policyTypes: ['Ingress', 'Egress'] });
    // Besides the metrics port opened to Prometheus alone (checked above).
    const ingress = policies.filter((policy) => policy.spec.ingress && policy.metadata.name !== 'paykit-metrics-ingress');
    expect(ingress.map((policy) => policy.spec.podSelector.matchLabels)).toEqual([{ 'app.kubernetes.io/name': 'gateway' }]);
    for (const app of SERVICE_NAMES) {
      const egress = policies
        .filter((policy) => policy.spec.podSelector.matchLabels?.['app.kubernetes.io/name'] === app && policy.spec.egress)
        .flatMap((policy) => policy.spec.egress);
      const peers = egress
        .flatMap((rule: { to: Array<{ podSelector?: { matchLabels: Record<string, string> } }> }) => rule.to.map((peer) => peer.podSelector?.matchLabels))
        .filter((labels: Record<string, string> | undefined): labels is Record<string, string> => labels !== undefined);
      expect(peers).toEqual(expect.arrayContaining([{ 'app.kubernetes.io/name': 'nats' }, { 'paykit.dev/database': app }, { 'k8s-app': 'kube-dns' }]));
      // No other app's database.
      expect(peers.filter((labels: Record<string, string>) => 'paykit.dev/database' in labels)).toEqual([{ 'paykit.dev/database': app }]);
      // Public addresses only for those that call out (webhooks to platforms, wallet-auth to OIDC issuers).
      const outside = egress.filter((rule: { to: Array<{ ipBlock?: object }> }) => rule.to.some((peer) => peer.ipBlock));
      expect(outside.length > 0).toBe(app === 'webhooks' || app === 'wallet-auth');
      for (const rule of outside)
        for (const peer of rule.to) expect(peer.ipBlock.except).toEqual(expect.arrayContaining(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16']));
    }
  });

  it('names, in its examples, external services that give each app what the manifests expect', () => {
    // CloudNativePG: a Cluster <app>-db per app, writing the Secret <app>-db-app (key uri) and labelling its pods for the app's NetworkPolicy.
    const clusters = (loadAll(readFileSync(join(K8S, 'examples', 'postgres-cloudnativepg.yaml'), 'utf8')) as K8sObject[]).filter(Boolean);
    expect(clusters.map((cluster) => cluster.kind)).toEqual(SERVICE_NAMES.map(() => 'Cluster'));
    for (const app of SERVICE_NAMES) {
      const cluster = clusters.find((object) => object.metadata.name === `${app}-db`)!;
      expect(cluster.apiVersion).toBe('postgresql.cnpg.io/v1');
      expect(cluster.spec.inheritedMetadata.labels).toEqual({ 'paykit.dev/database': app });
      for (const overlay of overlays()) {
        const env = containerEnv(rendered.get(overlay)!, named(rendered.get(overlay)!, 'Deployment', app)!.spec.template.spec.containers[0]);
        // Production connects through the cluster's pooler; the sandbox straight to the database.
        const secret = overlay.startsWith('production') ? `${app}-db-pooler` : `${app}-db-app`;
        expect(env.get(databaseUrlVariable(app))).toEqual({ from: 'secret', secret, key: 'uri', optional: false });
      }
    }
    // The official NATS chart: JetStream on file storage, clustered, monitoring served for KEDA.
    const nats = load(readFileSync(join(K8S, 'examples', 'nats-values.yaml'), 'utf8')) as any;
    expect(nats.config.jetstream).toMatchObject({ enabled: true, fileStore: { enabled: true } });
    expect(nats.config.monitor).toEqual({ enabled: true, port: 8222 });
    expect(nats.service.ports.monitor.enabled).toBe(true);
    for (const overlay of overlays()) {
      const env = containerEnv(rendered.get(overlay)!, named(rendered.get(overlay)!, 'Deployment', 'gateway')!.spec.template.spec.containers[0]);
      expect(valueOf(env.get('NATS_URL'))).toBe('nats://nats.nats.svc.cluster.local:4222');
    }
  });

  it('keeps no secret value in the repository: no Secret objects and no secret generators', () => {
    const files = execFileSync('git', ['ls-files', 'deploy/k8s'], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n');
    for (const file of files.filter((name) => /\.ya?ml$/.test(name))) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      expect({ file: relative(ROOT, join(ROOT, file)), secretGenerator: /secretGenerator/.test(text), secret: /^kind:\s*Secret\s*$/m.test(text) }).toEqual({
        file,
        secretGenerator: false,
        secret: false,
      });
    }
  });
});

function valueOf(source: EnvSource | undefined): string | undefined {
  return source && source.from !== 'secret' ? source.value : undefined;
}
