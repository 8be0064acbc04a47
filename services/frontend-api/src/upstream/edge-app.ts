import type { ServiceInfrastructure, ServicePlugin } from '@bunting/platform';
import { readFrontendConfig, type FrontendConfig } from '../frontend-config.ts';
import type { FrontendDeps } from '../frontend-deps.ts';
import { createEdgeCounts, registerEdgeMetrics } from '../edge-metrics.ts';
import { impactAdmission } from '../metrics/impact-admission.ts';
import { mountSdkRoutes } from '../sdk-routes.ts';
import { readEdgeConfig, type EdgeConfig } from './edge-config.ts';
import {
  filePersistence,
  redisPersistence,
  type EdgePersistence,
  type Persisted,
  type RestoredScope,
} from './edge-persistence.ts';
import { createEnvironmentSnapshots } from '../snapshots/environment-snapshots.ts';
import { createEdgeTokens, type KnownToken } from './edge-tokens.ts';
import { edgeValidateRoutes } from './edge-validate-routes.ts';
import { keepUnchanged, type FeatureSet } from '../snapshots/feature-set.ts';
import { createMetricsForwarder } from './metrics-forwarder.ts';
import { createFeed, type Feed } from './upstream-feed.ts';
import { createUpstream } from './upstream-http.ts';

/** A scope followed upstream: an environment and a token's projects; several tokens of the same scope share it. */
type Following = { environment: string; feed: Feed; secret: string; secrets: Set<string>; set?: FeatureSet };
/** How long a stopping edge waits for its last metrics post before giving up on the upstream. */
const FINAL_FLUSH_MS = 2_000;
const scopeKey = (token: KnownToken) => `${token.environment}\u0000${[...token.projects].sort().join(',')}`;

/**
 * The standalone edge (BUNTING_TARGET=edge): the SDK edge's routes, answers and compiled snapshots, fed from any
 * server that speaks Unleash's client API (UPSTREAM_URL) instead of a Bunting cluster's NATS and Redis. It needs no
 * Postgres, NATS or Redis; a directory or a Redis may keep its flags and tokens for an offline start.
 */
export function edgeApi(
  infrastructure: ServiceInfrastructure<never>,
  config: EdgeConfig = readEdgeConfig(infrastructure.env),
  frontend: FrontendConfig = readFrontendConfig(infrastructure.env),
): ServicePlugin {
  return async (app) => {
    const { log } = infrastructure;
    const upstream = createUpstream(config);
    const persistence: EdgePersistence | undefined = config.persistDir
      ? await filePersistence(config.persistDir, log)
      : config.persistRedisUrl
        ? await redisPersistence(config.persistRedisUrl, config.persistRedisPrefix, log)
        : undefined;
    const following = new Map<string, Following>();

    const snapshots = createEnvironmentSnapshots({
      hostname: frontend.hostname,
      log,
      // An environment comes from the scopes followed in it: a request waits for it only while one is, and while the
      // upstream can be reached (away, a 503 to retry at once, not one after EDGE_REQUEST_TIMEOUT_MS).
      request: (environment) =>
        !upstream.unreachable() && [...following.values()].some((entry) => entry.environment === environment),
      waitMs: config.requestTimeoutMs,
      onInstall: (revision, snapshot) => persistence?.saveRevision(snapshot.environment, revision),
    });

    const answers = infrastructure.metrics.counter(
      'bunting_edge_upstream_answers_total',
      "Upstream answers a standalone edge's feeds took, by what they held: every flag, the changes since, or nothing new",
      ['answer'],
    );
    /** Scopes followed before a restart, each taken by the first feed of its scope. */
    const followedBefore = new Map<string, RestoredScope>();

    function follow(token: KnownToken) {
      const key = scopeKey(token);
      const existing = following.get(key);
      if (existing) {
        existing.secrets.add(token.secret);
        return;
      }
      const entry: Following = {
        environment: token.environment,
        secret: token.secret,
        secrets: new Set([token.secret]),
        feed: createFeed({
          upstream,
          token: token.secret,
          log: log.child({ environment: token.environment }),
          config,
          // A delta that names its flags is installed as one: at 10,000 flags, comparing them all on every change was
          // most of the time a change took to reach the edge's SDKs. The feed applies each delta to the set kept
          // here, so the flags a delta left alone are already the objects compiled.
          onSet: (set, changed) => {
            entry.set = changed ? set : keepUnchanged(entry.set, set);
            snapshots.put(token.environment, key, entry.set, changed ? { how: 'delta', changed } : {});
            return entry.set;
          },
          onRefused: () => tokens.forget(token.secret),
          resume: followedBefore.get(key),
          onPosition: (position, set) => persistence?.saveScope(key, token.environment, position, set),
          onAnswer: (answer) => answers.inc({ answer }),
        }),
      };
      following.set(key, entry);
      followedBefore.delete(key);
    }

    function unfollow(token: KnownToken) {
      const key = scopeKey(token);
      const entry = following.get(key);
      if (!entry) return;
      entry.secrets.delete(token.secret);
      if (entry.secret !== token.secret) return;
      entry.feed.stop();
      following.delete(key);
      snapshots.drop(token.environment, key);
      persistence?.dropScope(key);
      // Another token of the same scope follows it from now on.
      const next = [...entry.secrets][0];
      if (next !== undefined) {
        follow({ ...token, secret: next });
        for (const secret of entry.secrets) following.get(key)!.secrets.add(secret);
      }
    }

    const tokens = createEdgeTokens({
      upstream,
      log,
      config,
      onClient: follow,
      onForgotten: (token) => {
        if (token.type === 'client') unfollow(token);
      },
      onChange: (known) => persistence?.saveTokens(known),
    });

    const persisted: Persisted = persistence
      ? await persistence.load()
      : { tokens: [], environments: [], scopes: new Map() };
    for (const kept of persisted.environments) snapshots.restore(kept);
    for (const [key, scope] of persisted.scopes) followedBefore.set(key, scope);
    if (persisted.environments.length > 0)
      log.info(
        { environments: persisted.environments.map((kept) => kept.environment) },
        'serving the flags persisted before the restart until the upstream answers',
      );
    // Not awaited: with persisted flags the edge serves at once, whether or not the upstream answers.
    const begun = tokens.begin(config.tokens, persisted.tokens);
    // Once the tokens are known, a scope kept that no token follows has no feed to come: its flags are not held for one.
    void begun.finally(() => followedBefore.clear()).catch(() => undefined);

    const tokenFor = (environment: string) => {
      const candidates = tokens.known().filter((token) => token.type === 'client' && token.environment === environment);
      return candidates.find((token) => token.projects.includes('*')) ?? candidates[0];
    };
    const forwarder = createMetricsForwarder({
      upstream,
      log,
      metrics: infrastructure.metrics,
      config,
      tokenFor,
      projectOf: (environment, name) => snapshots.current(environment)?.projectOf(name),
    });
    forwarder.start();

    infrastructure.readiness.add({
      name: 'edge-flags',
      check: async () => {
        const held = new Set(snapshots.held().map((entry) => entry.environment));
        if (held.size === 0 && upstream.lastAnswerAt() === 0) {
          throw new Error(
            `nothing to serve yet: the upstream ${config.upstreamUrl.origin} has not answered and no state was persisted`,
          );
        }
        const configured = tokens
          .known()
          .filter((token) => config.tokens.includes(token.secret) && token.type === 'client');
        const missing = [...new Set(configured.map((token) => token.environment))].filter(
          (environment) => !held.has(environment),
        );
        if (missing.length > 0)
          throw new Error(`the flags of ${missing.join(', ')} have not come from the upstream yet`);
      },
    });
    infrastructure.readiness.add({
      name: 'upstream',
      // Reported, never unready: an edge serves what it holds while the upstream is away, as SDKs would cache it.
      critical: false,
      check: async () => {
        const last = upstream.lastAnswerAt();
        if (last === 0) throw new Error(`the upstream ${config.upstreamUrl.origin} has not answered yet`);
        const age = Date.now() - last;
        if (age > config.staleAfterMs)
          throw new Error(`stale: the upstream last answered ${Math.round(age / 1000)} s ago`);
      },
    });

    const counts = createEdgeCounts();
    const removeMetrics = registerEdgeMetrics(infrastructure.metrics, snapshots, counts);
    const modes = infrastructure.metrics
      .sampledGauge('bunting_edge_upstream_feeds', 'Scopes a standalone edge follows upstream, by how', ['mode'])
      .addSource(() =>
        ['streaming', 'delta', 'polling'].map((mode) => ({
          labels: { mode },
          value: [...following.values()].filter((entry) => entry.feed.mode() === mode).length,
        })),
      );
    const deps: FrontendDeps = {
      config: frontend,
      snapshots,
      tokens,
      sendMetrics: forwarder.take,
      origins: { current: () => frontend.allowedOrigins, stop: () => undefined },
      counts,
      admitImpact: impactAdmission(infrastructure.metrics),
    };
    await mountSdkRoutes(app, deps, (server) => edgeValidateRoutes(server, tokens));
    app.addHook('onClose', async () => {
      removeMetrics();
      modes();
      tokens.stop();
      for (const entry of following.values()) entry.feed.stop();
      // The metrics held get a moment to go up; then whatever still waits on the upstream is given up. An upstream
      // that does not answer (a name no resolver answers, a network that drops packets) kept the stop waiting for
      // EDGE_REQUEST_TIMEOUT_MS, past the 10 s Docker gives a container before it kills it.
      const giveUp = setTimeout(upstream.abandon, FINAL_FLUSH_MS);
      await forwarder.stop();
      clearTimeout(giveUp);
      upstream.abandon();
      await begun.catch(() => undefined);
      await persistence?.close();
    });
  };
}
