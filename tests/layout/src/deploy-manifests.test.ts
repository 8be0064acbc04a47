import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { read } from './source-files.ts';

/**
 * The Kubernetes manifests as `kubectl kustomize` renders them (Kubernetes itself cannot run here), checked for what
 * the docker-compose deployment was found to lack when it was first run: health probes, a way for the ingress to
 * reach every replica, and the same routes as the compose ingress (deploy/ingress.nginx.conf).
 */
type Resource = {
  kind: string;
  metadata: { name: string; namespace?: string; annotations?: Record<string, string> };
  spec: any;
};

function render(folder = 'deploy/kubernetes'): Resource[] {
  let output: string;
  try {
    output = execFileSync('kubectl', ['kustomize', folder], {
      cwd: new URL('../../..', import.meta.url).pathname,
      encoding: 'utf8',
    });
  } catch (error) {
    throw new Error(`kubectl kustomize ${folder} failed (Debian's kubectl package provides kubectl): ${String(error)}`);
  }
  return parseAllDocuments(output).map((document) => document.toJS() as Resource);
}

const resources = render();
const ofKind = (kind: string) => resources.filter((resource) => resource.kind === kind);
const SERVICES = ['admin-api', 'event-log', 'frontend-api', 'signals', 'insights'];

/** Where a path goes by the compose ingress: nginx's rule (a matching regex location, else the longest prefix). */
function nginxRoute(path: string): string {
  const config = read('deploy/ingress.nginx.conf');
  const locations = [...config.matchAll(/location\s+(~\s+)?(\S+)\s*\{([^}]*)\}/g)].map((match) => ({
    regex: match[1] !== undefined,
    pattern: match[2]!,
    upstream: /set \$target \$(\w+)/.exec(match[3]!)?.[1] ?? 'none',
  }));
  const regex = locations.find((location) => location.regex && new RegExp(location.pattern).test(path));
  if (regex) return regex.upstream.replace(/_/g, '-');
  const prefixes = locations.filter((location) => !location.regex && path.startsWith(location.pattern));
  prefixes.sort((a, b) => b.pattern.length - a.pattern.length);
  return (prefixes[0]?.upstream ?? 'none').replace(/_/g, '-');
}

/** Where a path goes by the Kubernetes ingresses: a regex rule (ingress-nginx's use-regex), else the longest Prefix. */
function kubernetesRoute(path: string): string {
  const rules = ofKind('Ingress').flatMap((ingress) =>
    (ingress.spec.rules as { http: { paths: any[] } }[]).flatMap((rule) =>
      rule.http.paths.map((entry) => ({
        path: entry.path as string,
        type: entry.pathType as string,
        service: entry.backend.service.name as string,
      })),
    ),
  );
  const regex = rules.find((rule) => rule.type === 'ImplementationSpecific' && new RegExp(`^${rule.path}`).test(path));
  if (regex) return regex.service;
  const prefixes = rules.filter(
    (rule) =>
      rule.type === 'Prefix' &&
      (path === rule.path ||
        path.startsWith(rule.path.endsWith('/') ? rule.path : `${rule.path}/`) ||
        rule.path === '/'),
  );
  prefixes.sort((a, b) => b.path.length - a.path.length);
  return prefixes[0]?.service ?? 'none';
}

describe('the Kubernetes manifests', () => {
  it('render with kubectl kustomize into one namespace, with a Deployment and a Service for every Bunting service', () => {
    expect(
      new Set(
        resources.filter((resource) => resource.kind !== 'Namespace').map((resource) => resource.metadata.namespace),
      ),
    ).toEqual(new Set(['bunting']));
    const deployments = ofKind('Deployment').map((deployment) => deployment.metadata.name);
    expect(deployments.sort()).toEqual([...SERVICES].sort());
    const services = ofKind('Service').map((service) => service.metadata.name);
    for (const name of SERVICES) expect(services).toContain(name);
  });

  it('probe every service (ready on /ready, alive on /health, with time to start) and roll it without downtime', () => {
    for (const deployment of ofKind('Deployment')) {
      const [container] = deployment.spec.template.spec.containers;
      expect(container.readinessProbe?.httpGet?.path, deployment.metadata.name).toBe('/ready');
      expect(container.livenessProbe?.httpGet?.path, deployment.metadata.name).toBe('/health');
      expect(container.startupProbe?.httpGet?.path, deployment.metadata.name).toBe('/health');
      expect(container.image, deployment.metadata.name).toMatch(/^bunting:/);
      // The image's own entry (launcher/start.mjs) picks the built SDK edge or the sources by target.
      expect(container.command, deployment.metadata.name).toBeUndefined();
      // Rolled without a moment short of replicas, and a stopping pod keeps serving until the endpoints forget it.
      expect(deployment.spec.strategy?.rollingUpdate?.maxUnavailable, deployment.metadata.name).toBe(0);
      expect(container.lifecycle?.preStop?.sleep?.seconds, deployment.metadata.name).toBeGreaterThan(0);
      expect(deployment.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThan(
        container.lifecycle.preStop.sleep.seconds + 10,
      );
    }
    const nats = ofKind('StatefulSet').find((set) => set.metadata.name === 'nats');
    expect(nats?.spec.replicas).toBe(3);
    expect(nats?.spec.template.spec.containers[0].readinessProbe).toBeDefined();
    expect(nats?.spec.template.spec.containers[0].livenessProbe).toBeDefined();
  });

  it('route through Services that select the pods of a Deployment (each request reaches a live replica, whatever scaling did)', () => {
    const services = new Map(ofKind('Service').map((service) => [service.metadata.name, service]));
    const backends = ofKind('Ingress').flatMap((ingress) =>
      (ingress.spec.rules as { http: { paths: any[] } }[]).flatMap((rule) =>
        rule.http.paths.map((entry) => entry.backend.service),
      ),
    );
    for (const backend of backends) {
      const service = services.get(backend.name);
      expect(service, backend.name).toBeDefined();
      expect(service!.spec.ports.map((port: { name: string }) => port.name)).toContain(backend.port.name);
      const deployment = ofKind('Deployment').find((candidate) =>
        Object.entries(service!.spec.selector).every(
          ([key, value]) => candidate.spec.template.metadata.labels[key] === value,
        ),
      );
      expect(deployment?.metadata.name, backend.name).toBe(backend.name);
    }
  });

  it('send every path where the compose ingress sends it', () => {
    const samples: Record<string, string> = {
      '/api/frontend': 'frontend-api',
      '/api/frontend/client/metrics': 'frontend-api',
      '/api/client/features': 'frontend-api',
      '/api/client/streaming': 'frontend-api',
      '/ofrep/v1/evaluate/flags': 'frontend-api',
      '/api/signal-endpoint/deploys': 'signals',
      '/api/admin/signal-endpoints': 'signals',
      '/api/admin/signals': 'signals',
      '/api/admin/projects/default/actions': 'signals',
      '/api/admin/projects/default/actions/3': 'signals',
      '/api/admin/events': 'event-log',
      '/api/admin/events/my-flag': 'event-log',
      '/api/admin/search/events': 'event-log',
      '/api/admin/event-creators': 'event-log',
      '/api/admin/insights': 'insights',
      '/api/admin/dashboard/executive': 'insights',
      '/api/admin/instance-admin/statistics': 'insights',
      '/api/admin/metrics/applications': 'insights',
      '/api/admin/client-metrics/features/my-flag': 'insights',
      '/api/admin/impact-metrics': 'insights',
      '/api/admin/impact-metrics/query': 'insights',
      '/api/admin/projects/default/features/my-flag/impact-metrics/config': 'insights',
      '/api/admin/projects/default/health-report': 'insights',
      '/api/admin/projects/default/status': 'insights',
      '/api/admin/projects/default/sdks/outdated': 'insights',
      '/api/admin/projects': 'admin-api',
      '/api/admin/projects/default': 'admin-api',
      '/api/admin/projects/default/features/my-flag': 'admin-api',
      '/api/admin/projects/default/features/my-flag/environments/production/release-plans': 'admin-api',
      '/api/admin/features': 'admin-api',
      '/api/admin/mcp': 'admin-api',
      '/auth/simple/login': 'admin-api',
      '/login': 'admin-api',
      '/': 'admin-api',
    };
    const differences = Object.entries(samples).flatMap(([path, owner]) => {
      const compose = nginxRoute(path);
      const kubernetes = kubernetesRoute(path);
      return compose === owner && kubernetes === owner
        ? []
        : [`${path}: owner ${owner}, compose ${compose}, kubernetes ${kubernetes}`];
    });
    expect(differences).toEqual([]);
  });
});

describe("the standalone edge's manifests (deploy/kubernetes/edge) and compose service", () => {
  const edge = render('deploy/kubernetes/edge');
  const [deployment] = edge.filter((resource) => resource.kind === 'Deployment');
  const config = edge.find((resource) => resource.kind === 'ConfigMap') as unknown as {
    metadata: { name: string };
    data: Record<string, string>;
  };

  it('run the edge target against a configured upstream, with its tokens from a Secret and a place to persist', () => {
    expect(deployment?.metadata.name).toBe('edge');
    const [container] = deployment!.spec.template.spec.containers;
    expect(config.data.BUNTING_TARGET).toBe('edge');
    // The image's entry starts the edge from its build (deploy/Dockerfile's edge stage, launcher/start.mjs).
    expect(deployment?.spec.template.spec.containers[0].command).toBeUndefined();
    expect(read('deploy/Dockerfile')).toContain('CMD ["node", "launcher/start.mjs"]');
    expect(read('deploy/Dockerfile')).toContain('COPY --from=edge /app/launcher/dist launcher/dist');
    expect(config.data.UPSTREAM_URL).toMatch(/^https?:\/\//);
    const sources = container.envFrom.map(
      (source: { configMapRef?: { name: string }; secretRef?: { name: string } }) =>
        source.configMapRef?.name ?? source.secretRef?.name,
    );
    expect(sources).toContain(config.metadata.name);
    const secret = edge.find((resource) => resource.kind === 'Secret') as unknown as {
      metadata: { name: string };
      stringData: Record<string, string>;
    };
    expect(sources).toContain(secret.metadata.name);
    expect(Object.keys(secret.stringData)).toContain('EDGE_TOKENS');
    const persistDir = container.env.find((entry: { name: string }) => entry.name === 'EDGE_PERSIST_DIR')?.value;
    expect(container.volumeMounts.map((mount: { mountPath: string }) => mount.mountPath)).toContain(persistDir);
  });

  it("probe and roll it as the cluster's services, behind a Service that selects its pods", () => {
    const [container] = deployment!.spec.template.spec.containers;
    expect(container.readinessProbe?.httpGet?.path).toBe('/ready');
    expect(container.livenessProbe?.httpGet?.path).toBe('/health');
    expect(container.startupProbe?.httpGet?.path).toBe('/health');
    expect(deployment!.spec.strategy.rollingUpdate.maxUnavailable).toBe(0);
    const service = edge.find((resource) => resource.kind === 'Service');
    expect(
      Object.entries(service!.spec.selector).every(
        ([key, value]) => deployment!.spec.template.metadata.labels[key] === value,
      ),
    ).toBe(true);
  });

  it('is a compose service of its own profile, on the same image, following the stack through its ingress by default', () => {
    const compose = parseAllDocuments(read('deploy/docker-compose.yml'))[0]!.toJS() as {
      services: Record<string, any>;
    };
    const service = compose.services.edge;
    expect(service.profiles).toEqual(['edge']);
    expect(service.environment.BUNTING_TARGET).toBe('edge');
    expect(service.command).toBeUndefined();
    expect(service.environment.UPSTREAM_URL).toContain('http://ingress:4242');
    expect(service.volumes.map((volume: string) => volume.split(':')[1])).toContain(
      service.environment.EDGE_PERSIST_DIR,
    );
    expect(service.image).toBe((compose as unknown as Record<string, { image: string }>)['x-bunting']!.image);
  });
});
