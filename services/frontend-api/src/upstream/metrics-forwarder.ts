import { metricsProjects, type BulkMetrics, type ClientMetrics } from '@bunting/contracts';
import type { Logger, Metrics } from '@bunting/platform';
import type { SendMetrics, UnstampedMetrics } from '../metrics/metrics-publisher.ts';
import type { EdgeConfig } from './edge-config.ts';
import type { KnownToken } from './edge-tokens.ts';
import type { Upstream } from './upstream-http.ts';

type Entry = NonNullable<BulkMetrics['metrics']>[number];
type Application = NonNullable<BulkMetrics['applications']>[number];
/** One environment's share of what is waiting to go upstream. */
/**
 * An impact metric as forwarded: each sample that names no origin is labelled `origin: edge`, so upstream tells what
 * came through an edge from what an SDK sent it directly. Anything not shaped as a metric passes as it is (upstream
 * judges it).
 */
function throughEdge(metric: unknown): unknown {
  if (typeof metric !== 'object' || metric === null || !Array.isArray((metric as { samples?: unknown }).samples))
    return metric;
  const samples = (metric as { samples: unknown[] }).samples.map((sample) => {
    if (typeof sample !== 'object' || sample === null) return sample;
    const labels = (sample as { labels?: unknown }).labels;
    const own = typeof labels === 'object' && labels !== null && !Array.isArray(labels) ? labels : {};
    return Object.hasOwn(own, 'origin') ? sample : { ...sample, labels: { ...own, origin: 'edge' } };
  });
  return { ...metric, samples };
}

type Batch = { environment: string; metrics: Entry[]; applications: Application[]; impactMetrics: unknown[] };

/** The most each bulk post carries (the bulk endpoint's own limits). */
const METRICS_PER_POST = 10_000;
const APPLICATIONS_PER_POST = 1000;

/** Counts of a flag in an app and environment, added together while they wait. */
function addCounts(into: Entry, from: Pick<Entry, 'yes' | 'no' | 'variants'>) {
  into.yes += from.yes;
  into.no += from.no;
  if (from.variants) {
    const variants = (into.variants ??= {});
    for (const [name, count] of Object.entries(from.variants))
      variants[name] = (Object.hasOwn(variants, name) ? variants[name]! : 0) + count;
  }
}

/**
 * SDK metrics and registrations at a standalone edge: aggregated by environment, app and flag, and sent upstream in
 * bulk (POST /api/client/metrics/bulk, as Unleash Edge does) with a client token of their environment. What a post
 * took is removed only once the upstream accepted it (at least once); while the upstream does not take them, at most
 * EDGE_METRICS_LIMIT entries wait, and the oldest go first (counted in bunting_edge_metrics_dropped_total).
 */
export function createMetricsForwarder(deps: {
  upstream: Upstream;
  log: Logger;
  metrics: Metrics;
  config: Pick<EdgeConfig, 'metricsIntervalMs' | 'metricsLimit'>;
  tokenFor: (environment: string) => KnownToken | undefined;
  /** The project of a flag the edge holds in an environment (undefined: it holds no such flag). */
  projectOf: (environment: string, name: string) => string | undefined;
}) {
  const { upstream, log, config } = deps;
  const counts = new Map<string, Entry>();
  const applications = new Map<string, Application>();
  /**
   * The projects of the token that sent each count the edge could not place when it came: a name it held no flag of.
   * Upstream sees one token of the edge's for all of them, so whether the name was another project's flag after all
   * is asked here, when the count leaves (by then the edge has usually heard of a flag created moments before).
   */
  const unplaced = new Map<string, ReadonlySet<string>>();
  const impact = new Map<string, unknown[]>();
  let impactHeld = 0;
  const dropped = deps.metrics.counter(
    'bunting_edge_metrics_dropped_total',
    'SDK metrics entries a standalone edge dropped before its upstream took them, by why',
    ['reason'],
  );
  const forwarded = deps.metrics.counter(
    'bunting_edge_metrics_forwarded_total',
    'SDK metrics entries a standalone edge sent upstream',
    [],
  );
  const held = () => counts.size + applications.size + impactHeld;
  const removeGauge = deps.metrics
    .sampledGauge(
      'bunting_edge_metrics_pending',
      'SDK metrics entries and registrations waiting at a standalone edge',
      [],
    )
    .addSource(() => [{ labels: {}, value: held() }]);
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> | undefined;
  let failingSince: number | undefined;

  /** Keeps the entry count within the limit: the oldest entries go first. */
  /** Drops the oldest until at most `most` are held. */
  function dropOldest(most: number) {
    while (held() > most && held() > 0) {
      const oldest = counts.keys().next();
      if (!oldest.done) {
        counts.delete(oldest.value);
        unplaced.delete(oldest.value);
      } else {
        const application = applications.keys().next();
        if (!application.done) applications.delete(application.value);
        else {
          const [environment, list] = impact.entries().next().value!;
          list.shift();
          impactHeld -= 1;
          if (list.length === 0) impact.delete(environment);
        }
      }
      dropped.inc({ reason: 'full' });
    }
  }

  /** Room for one more within the limit. */
  const makeRoom = () => dropOldest(config.metricsLimit - 1);

  const countKey = (entry: Entry) => `${entry.environment}\u0000${entry.appName}\u0000${entry.featureName}`;
  const applicationKey = (application: Application) =>
    `${application.environment}\u0000${application.appName}\u0000${application.instanceId ?? ''}`;

  function addEntry(entry: Entry, projects?: ReadonlySet<string>) {
    let key = countKey(entry);
    if (projects && deps.projectOf(entry.environment!, entry.featureName) === undefined) {
      key += `\u0000${[...projects].sort().join(',')}`;
      unplaced.set(key, projects);
    }
    const waiting = counts.get(key);
    if (waiting) {
      addCounts(waiting, entry);
      return;
    }
    makeRoom();
    counts.set(key, { ...entry, variants: entry.variants ? { ...entry.variants } : undefined });
  }

  function addApplication(application: Application) {
    const key = applicationKey(application);
    if (!applications.has(key)) makeRoom();
    applications.delete(key);
    applications.set(key, application);
  }

  function addImpact(environment: string, metrics: unknown) {
    if (!Array.isArray(metrics)) return;
    for (const metric of metrics) {
      makeRoom();
      const list = impact.get(environment) ?? impact.set(environment, []).get(environment)!;
      list.push(throughEdge(metric));
      impactHeld += 1;
    }
  }

  function addBucket(environment: string, body: ClientMetrics, projects: ReadonlySet<string> | undefined) {
    for (const [featureName, toggle] of Object.entries(body.bucket.toggles)) {
      addEntry(
        {
          featureName,
          appName: body.appName,
          environment,
          timestamp: body.bucket.start,
          yes: toggle.yes ?? 0,
          no: toggle.no ?? 0,
          ...(toggle.variants ? { variants: toggle.variants } : {}),
        },
        projects,
      );
    }
    if (body.impactMetrics !== undefined) addImpact(environment, body.impactMetrics);
  }

  const take: SendMetrics = async (message: UnstampedMetrics) => {
    const { environment } = message;
    const projects = metricsProjects(message);
    switch (message.kind) {
      case 'client-metrics':
      case 'frontend-metrics':
        addBucket(environment, message.body, projects);
        break;
      case 'client-register':
      case 'frontend-register':
        addApplication({ ...message.body, environment });
        break;
      case 'bulk-metrics':
        // An edge chained behind this one: its entries keep their environment when it is the token's.
        for (const entry of message.body.metrics ?? [])
          if ((entry.environment ?? environment) === environment) addEntry({ ...entry, environment }, projects);
        for (const application of message.body.applications ?? []) addApplication({ ...application, environment });
        if (message.body.impactMetrics !== undefined) addImpact(environment, message.body.impactMetrics);
        break;
    }
  };

  /** Everything waiting, by environment, taken out of the maps (put back by `restore` when a post fails). */
  function takeAll(): Batch[] {
    const batches = new Map<string, Batch>();
    const batchOf = (environment: string) =>
      batches.get(environment) ??
      batches.set(environment, { environment, metrics: [], applications: [], impactMetrics: [] }).get(environment)!;
    // A count held apart is another project's when the edge now holds its flag in a project the sender lacks.
    const otherProjects = (key: string, entry: Entry) => {
      const projects = unplaced.get(key);
      if (!projects) return false;
      const project = deps.projectOf(entry.environment!, entry.featureName);
      return project !== undefined && !projects.has(project);
    };
    for (const [key, entry] of counts) {
      if (otherProjects(key, entry)) {
        dropped.inc({ reason: 'other_project' });
        continue;
      }
      batchOf(entry.environment!).metrics.push(entry);
    }
    unplaced.clear();
    for (const application of applications.values()) batchOf(application.environment!).applications.push(application);
    for (const [environment, list] of impact) batchOf(environment).impactMetrics.push(...list);
    counts.clear();
    applications.clear();
    impact.clear();
    impactHeld = 0;
    return [...batches.values()];
  }

  /**
   * What a failed post took goes back in front of what arrived while it was on its way (it is older), so the oldest
   * still go first; then anything past the limit goes.
   */
  function restore(batch: Batch) {
    const newerCounts = [...counts.values()];
    counts.clear();
    for (const entry of batch.metrics) counts.set(countKey(entry), entry);
    for (const entry of newerCounts) {
      const older = counts.get(countKey(entry));
      if (older) addCounts(older, entry);
      else counts.set(countKey(entry), entry);
    }
    const newerApplications = [...applications.values()];
    applications.clear();
    for (const application of [...batch.applications, ...newerApplications]) {
      applications.delete(applicationKey(application));
      applications.set(applicationKey(application), application);
    }
    if (batch.impactMetrics.length > 0) {
      impact.set(batch.environment, [...batch.impactMetrics, ...(impact.get(batch.environment) ?? [])]);
      impactHeld += batch.impactMetrics.length;
    }
    dropOldest(config.metricsLimit);
  }

  /** Posts a batch in pieces the bulk endpoint takes; what was accepted leaves the batch, so a failure keeps the rest. */
  async function post(batch: Batch, token: KnownToken): Promise<'sent' | 'refused' | 'failed'> {
    for (;;) {
      const body: BulkMetrics = {
        metrics: batch.metrics.slice(0, METRICS_PER_POST),
        applications: batch.applications.slice(0, APPLICATIONS_PER_POST),
        ...(batch.impactMetrics.length > 0 ? { impactMetrics: batch.impactMetrics } : {}),
      };
      try {
        const answer = await upstream.request('POST', 'api/client/metrics/bulk', { token: token.secret, body });
        if (answer.status === 400 || answer.status === 413) return 'refused';
        if (answer.status >= 300) return 'failed';
      } catch {
        return 'failed';
      }
      batch.metrics = batch.metrics.slice(METRICS_PER_POST);
      batch.applications = batch.applications.slice(APPLICATIONS_PER_POST);
      batch.impactMetrics = [];
      forwarded.inc(body.metrics!.length);
      if (batch.metrics.length === 0 && batch.applications.length === 0) return 'sent';
    }
  }

  async function flushOnce() {
    for (const batch of takeAll()) {
      const token = deps.tokenFor(batch.environment);
      if (!token) {
        restore(batch);
        continue;
      }
      const outcome = await post(batch, token);
      if (outcome === 'failed') {
        restore(batch);
        if (failingSince === undefined) {
          failingSince = Date.now();
          log.warn(
            { environment: batch.environment },
            'the upstream does not take metrics now; keeping them (oldest dropped past EDGE_METRICS_LIMIT)',
          );
        }
      } else if (outcome === 'refused') {
        dropped.inc({ reason: 'refused' }, batch.metrics.length + batch.applications.length);
        log.warn({ environment: batch.environment }, 'the upstream refused a metrics post; its entries are dropped');
      } else {
        failingSince = undefined;
      }
    }
  }

  /** One flush at a time: a flush asked for while one runs waits for it. */
  const flush = () =>
    (flushing ??= flushOnce().finally(() => {
      flushing = undefined;
    }));

  return {
    take,
    flush,
    pending: held,
    start() {
      const schedule = () => {
        timer = setTimeout(() => void flush().finally(schedule), config.metricsIntervalMs);
        timer.unref();
      };
      schedule();
    },
    async stop() {
      if (timer) clearTimeout(timer);
      removeGauge();
      await flush();
    },
  };
}
