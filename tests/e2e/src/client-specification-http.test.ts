import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Unleash } from 'unleash-client';
import {
  eventually,
  httpClient,
  startTestStack,
  type HttpClient,
  type TestStack,
  stopUnleashSdk,
} from '@bunting/test-stack';

/**
 * Unleash's client specification through HTTP: each file's flags and segments made through the admin API (a project
 * per file), then every case evaluated by the real Node SDK reading Bunting's client API. Cases whose state the admin
 * API cannot hold (as Unleash's cannot: dependency cycles and chains, a parent that does not exist) are listed with
 * the reason; every other case must pass.
 */
const require = createRequire(import.meta.url);
const root = join(dirname(require.resolve('@unleash/client-specification/package.json')), 'specifications');
const files: string[] = JSON.parse(readFileSync(join(root, 'index.json'), 'utf8'));

type Json = Record<string, any>;
type Spec = {
  name: string;
  state: { features?: Json[]; segments?: Json[]; events?: Json[] };
  tests?: { description: string; context: Json; toggleName: string; expectedResult: boolean }[];
  variantTests?: { description: string; context: Json; toggleName: string; expectedResult: Json }[];
};

/**
 * Flags whose state the admin API refuses, as Unleash 8.2's does (each checked against a live Unleash), so their
 * cases cannot be expressed through it. The refusals must be exactly these.
 */
const NO_VALUES = 'an IN or NOT_IN constraint without values';
const NOT_AN_ADDRESS = 'an address that is neither an IP nor a CIDR range';
const NOT_RE2 = 'a regular expression the engine refuses (invalid, lookahead, backreference)';
const REFUSED: Record<string, Record<string, string>> = {
  '09': { 'Feature.constraints.empty': NO_VALUES, 'Feature.constraints.empty-not-in': NO_VALUES },
  '11': { 'Feature.constraints.no_values': NO_VALUES, 'Feature.constraints.no_values_NOT_IN': NO_VALUES },
  '13': { 'F7.invalid-operator': 'an operator that does not exist' },
  '14': { 'F8.invalidSemverWithLeadingV': 'a version that is not semver ("v2.0.0")' },
  '15': { 'F9.withMissingSegment': 'a segment that does not exist' },
  '17': { 'parents.not.exist.child.enabled': 'a dependency on a flag that does not exist' },
  '18': {
    'Feature.UTF-8.Hellø_Wørld': 'a name that is not URL friendly',
    'Feature.UTF-8.😊_φriend_你好_🌍': 'a name that is not URL friendly',
  },
  '21': {
    'invalid-regex-defaults-to-false': NOT_RE2,
    'R90.reject_lookahead': NOT_RE2,
    'R91.reject_backreference': NOT_RE2,
  },
  '22': {
    'CIDR.mixed.values': NOT_AN_ADDRESS,
    'CIDR.invalid.only': NOT_AN_ADDRESS,
    'CIDR.ipv6.mixed.values': NOT_AN_ADDRESS,
  },
};
/** Flags the admin API would hold only in part (one link of a cycle or chain): their dependencies are not asked for. */
const PARTLY: Record<string, string> = {
  'parent.with.cycle': 'a dependency cycle',
  'child.with.cycle': 'a dependency cycle',
  'child.with.transitive.dependency': 'a dependency on a flag that itself depends on one',
};
/**
 * Flags whose variant weights the admin API cannot hold: it spreads variable weights evenly to a total of 1000
 * (Unleash's does too), and these total 99, 100 or split unevenly, so SDKs bucket users differently. Their
 * isEnabled cases still run.
 */
const WEIGHTS_NOT_HELD = new Set([
  'Feature.Variants.C',
  'Feature.Variants.D',
  'Feature.Variants.override.D',
  'Feature.flexible.rollout.custom.stickiness_100',
  'F9.globalSegmentOn',
  'Feature.strategy.variants.stickiness',
]);

/** The final state of a delta-API file: its events applied in order. */
function foldEvents(events: readonly Json[]) {
  const features = new Map<string, Json>();
  const segments = new Map<number, Json>();
  for (const event of events) {
    if (event.type === 'hydration') {
      features.clear();
      segments.clear();
      for (const feature of event.features ?? []) features.set(feature.name, feature);
      for (const segment of event.segments ?? []) segments.set(segment.id, segment);
    } else if (event.type === 'feature-updated') features.set(event.feature.name, event.feature);
    else if (event.type === 'feature-removed') features.delete(event.featureName);
    else if (event.type === 'segment-updated') segments.set(event.segment.id, event.segment);
    else if (event.type === 'segment-removed') segments.delete(event.segmentId);
  }
  return { features: [...features.values()], segments: [...segments.values()] };
}

const BUILT_IN = new Set([
  'default',
  'userWithId',
  'gradualRolloutUserId',
  'gradualRolloutSessionId',
  'gradualRolloutRandom',
  'remoteAddress',
  'flexibleRollout',
  'applicationHostname',
]);
const text = (parameters: Json | undefined) =>
  Object.fromEntries(Object.entries(parameters ?? {}).map(([name, value]) => [name, String(value)]));

/**
 * Variants as the client API states them, made for the admin API: untyped variants are variable (the admin API
 * spreads what fixed ones leave evenly over them, to a total of 1000); without stickiness, the default one. Where
 * the spec's weights are not such a spread (two of weight 1, four of 25), SDKs pick between them differently, so
 * those flags' variant cases are listed below as not expressible.
 */
const variantsOf = (variants: Json[] | undefined) =>
  (variants ?? []).map((variant) => ({
    ...variant,
    weightType: variant.weightType ?? 'variable',
    stickiness: variant.stickiness ?? 'default',
  }));

/** Builds one file's state in its own project through the admin API; answers what the API refused, by flag. */
const flag = (feature: Json): string => feature.name;

async function build(
  admin: HttpClient,
  project: string,
  state: { features: Json[]; segments: Json[] },
): Promise<Map<string, string>> {
  const refused = new Map<string, string>();
  const must = (flag: string, what: string, reply: { status: number; text: string }) => {
    if (reply.status >= 300 && !refused.has(flag))
      refused.set(flag, `${what}: ${reply.status} ${reply.text.slice(0, 200)}`);
  };
  const segmentIds = new Map<number, number>();
  for (const segment of state.segments) {
    const created = await admin.post('/api/admin/segments', {
      name: `${project}-${segment.name ?? segment.id}`,
      constraints: segment.constraints ?? [],
      project,
    });
    segmentIds.set(segment.id, created.body.id);
  }
  const base = `/api/admin/projects/${project}/features`;
  for (const feature of state.features) {
    for (const strategy of feature.strategies ?? []) {
      if (BUILT_IN.has(strategy.name)) continue;
      await admin.post('/api/admin/strategies', {
        name: strategy.name,
        parameters: Object.keys(strategy.parameters ?? {}).map((name) => ({ name, type: 'string', required: false })),
      });
    }
    // The first refusal of a flag is its reason; what follows from it (nothing to enable) is not.
    must(
      feature.name,
      'create',
      await admin.post(base, {
        name: feature.name,
        description: feature.description ?? '',
        impressionData: feature.impressionData ?? false,
      }),
    );
    const at = `${base}/${encodeURIComponent(feature.name)}/environments/development`;
    for (const strategy of feature.strategies ?? []) {
      must(
        feature.name,
        `strategy ${strategy.name}`,
        await admin.post(`${at}/strategies`, {
          name: strategy.name,
          parameters: text(strategy.parameters),
          constraints: strategy.constraints ?? [],
          segments: (strategy.segments ?? []).map((id: number) => segmentIds.get(id)),
          variants: variantsOf(strategy.variants),
        }),
      );
    }
    if (feature.variants?.length)
      must(feature.name, 'variants', await admin.put(`${at}/variants`, variantsOf(feature.variants)));
  }
  for (const feature of state.features) {
    for (const dependency of flag(feature) in PARTLY ? [] : (feature.dependencies ?? [])) {
      must(
        feature.name,
        `dependency on ${dependency.feature}`,
        await admin.post(`${base}/${encodeURIComponent(feature.name)}/dependencies`, dependency),
      );
    }
    // Switched on last: a flag with no strategy of its own then serves the default, as an enabled flag without one does.
    if (feature.enabled)
      must(
        feature.name,
        'enable',
        await admin.post(`${base}/${encodeURIComponent(feature.name)}/environments/development/on`),
      );
  }
  return refused;
}

let stack: TestStack;
const sdks: Unleash[] = [];

type Served = { name: string; enabled: boolean; strategies: unknown[]; variants?: unknown[]; dependencies?: unknown[] };
const digest = (flag: Served) =>
  `${flag.name}:${flag.enabled}:${flag.strategies.length}:${flag.variants?.length ?? 0}:${flag.dependencies?.length ?? 0}`;

/**
 * The SDK edge serves what admin-api committed a moment later: the SDK starts once the client API serves every flag
 * of the project as the admin API holds it in development (on or off, how many strategies, variants, parents).
 */
async function servedAsBuilt(project: string, token: string) {
  const names = (
    (await stack.admin.get(`/api/admin/projects/${project}/features`)).body.features as { name: string }[]
  ).map((one) => one.name);
  const expected = await Promise.all(
    names.map(async (name) => {
      const feature = (await stack.admin.get(`/api/admin/projects/${project}/features/${encodeURIComponent(name)}`))
        .body;
      const development = (
        feature.environments as { name: string; enabled: boolean; strategies: unknown[]; variants?: unknown[] }[]
      ).find((environment) => environment.name === 'development')!;
      return digest({
        name,
        enabled: development.enabled,
        strategies: development.strategies,
        variants: development.variants ?? feature.variants,
        dependencies: feature.dependencies,
      });
    }),
  );
  const client = httpClient(stack.url, { authorization: token });
  await eventually(
    async () => {
      const served = ((await client.get('/api/client/features')).body.features as Served[]).map(digest);
      return expected.every((one) => served.includes(one));
    },
    { timeoutMs: 15_000 },
  );
}
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  for (const sdk of sdks) stopUnleashSdk(sdk);
  await stack?.dispose();
});

describe.each(files)('client specification %s through the admin API and the real SDK', (file) => {
  const spec: Spec = JSON.parse(readFileSync(join(root, file), 'utf8'));
  const project = `spec-${file.slice(0, 2)}`;
  const refusedHere = REFUSED[file.slice(0, 2)] ?? {};
  const unexpressed = (flag: string) => flag in refusedHere || flag in PARTLY;
  let sdk: Unleash;
  let refused: Map<string, string>;

  beforeAll(async () => {
    const state = spec.state.events
      ? foldEvents(spec.state.events)
      : { features: spec.state.features ?? [], segments: spec.state.segments ?? [] };
    expect((await stack.admin.post('/api/admin/projects', { id: project, name: project })).status).toBe(201);
    refused = await build(stack.admin, project, state);
    const token = await stack.admin.post('/api/admin/api-tokens', {
      tokenName: project,
      type: 'backend',
      environment: 'development',
      projects: [project],
    });
    await servedAsBuilt(project, token.body.secret as string);
    sdk = new Unleash({
      url: `${stack.url}/api/`,
      appName: 'spec',
      customHeaders: { Authorization: token.body.secret },
      disableMetrics: true,
      refreshInterval: 60_000,
    });
    sdk.on('error', () => undefined);
    sdks.push(sdk);
    await new Promise<void>((resolve) => sdk.once('synchronized', () => resolve()));
  }, 60_000);

  // Flag names are unique across projects (in Unleash too): a later file may use the same ones.
  afterAll(async () => {
    const names = (
      (await stack.admin.get(`/api/admin/projects/${project}/features`)).body.features as { name: string }[]
    ).map((one) => one.name);
    if (names.length === 0) return;
    await stack.admin.post(`/api/admin/projects/${project}/archive`, { features: names });
    await stack.admin.post(`/api/admin/projects/${project}/delete`, { features: names });
  });

  it('builds every flag the admin API can hold; only those it cannot are refused', () => {
    const names = new Set(
      (spec.state.events ? foldEvents(spec.state.events) : { features: spec.state.features ?? [] }).features.map(flag),
    );
    expect([...refused.keys()].sort(), JSON.stringify([...refused])).toEqual(
      Object.keys(refusedHere)
        .filter((name) => names.has(name))
        .sort(),
    );
  });

  for (const test of spec.tests ?? []) {
    it.skipIf(unexpressed(test.toggleName))(`${test.description} (${test.toggleName})`, () => {
      expect(sdk.isEnabled(test.toggleName, test.context)).toBe(test.expectedResult);
    });
  }

  for (const test of spec.variantTests ?? []) {
    it.skipIf(unexpressed(test.toggleName) || WEIGHTS_NOT_HELD.has(test.toggleName))(
      `variant: ${test.description} (${test.toggleName})`,
      () => {
        const expected = { ...test.expectedResult };
        const actual: Json = { ...sdk.getVariant(test.toggleName, test.context) };
        if (!('feature_enabled' in expected)) delete actual.feature_enabled;
        if (!('featureEnabled' in expected)) delete actual.featureEnabled;
        expect(actual).toEqual(expected);
      },
    );
  }
});
