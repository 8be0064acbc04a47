import { metricsEnvironment, type MetricsMessage } from '@bunting/contracts';
import type { MetricRow } from './metric-store.ts';

export type { MetricRow } from './metric-store.ts';

const HOUR_MS = 3_600_000;
const MAX_SKEW_MS = 2 * 24 * HOUR_MS;

/** The hour a bucket belongs to: its own start, unless missing or implausibly far from when it arrived. */
export function bucketHour(start: string | number | undefined, receivedAt: string): Date {
  const received = Date.parse(receivedAt);
  const claimed = start === undefined ? Number.NaN : typeof start === 'number' ? start : Date.parse(start);
  const at = Number.isFinite(claimed) && Math.abs(claimed - received) <= MAX_SKEW_MS ? claimed : received;
  return new Date(Math.floor(at / HOUR_MS) * HOUR_MS);
}

export type Registration = { app: string; sdkVersion: string | null; strategies: string[] };
export type Instance = {
  app: string;
  instanceId: string;
  environment: string;
  sdkVersion: string | null;
  frontend: boolean;
};
export type MetricFacts = { apps: string[]; rows: MetricRow[]; registration?: Registration; instances: Instance[] };

const fits = (name: string) => name.length > 0 && name.length <= 255;

/** What one message says, as hourly rows and the apps it shows alive. Names over 255 characters are skipped. */
export function metricFacts(message: MetricsMessage): MetricFacts {
  if (message.kind === 'bulk-metrics') return bulkFacts(message);
  // Tracked outcomes say nothing of applications alive: the impact metrics sent beside them do.
  if (message.kind === 'tracked-units') return { apps: [], rows: [], instances: [] };
  const { appName, instanceId, sdkVersion } = message.body;
  if (appName === undefined || !fits(appName)) return { apps: [], rows: [], instances: [] };
  const frontend = message.kind.startsWith('frontend');
  const instances =
    instanceId && fits(instanceId)
      ? [{ app: appName, instanceId, environment: message.environment, sdkVersion: sdkVersion ?? null, frontend }]
      : [];
  if (message.kind === 'client-register' || message.kind === 'frontend-register') {
    const registration = {
      app: appName,
      sdkVersion: sdkVersion ?? null,
      strategies: (message.body.strategies ?? []).filter(fits).slice(0, 100),
    };
    return { apps: [appName], rows: [], registration, instances };
  }
  const { bucket } = message.body;
  const hour = bucketHour(bucket.start, message.receivedAt).toISOString();
  const rows = Object.entries(bucket.toggles)
    .filter(([feature]) => fits(feature))
    .map(([feature, counts]) => ({
      hour,
      app: appName,
      environment: message.environment,
      feature,
      yes: counts.yes ?? 0,
      no: counts.no ?? 0,
      variants: Object.entries(counts.variants ?? {}).filter(([name]) => fits(name)),
    }));
  return { apps: [appName], rows, instances };
}

/** A bulk post: each entry counts in its own environment when the token may speak for it. */
function bulkFacts(message: Extract<MetricsMessage, { kind: 'bulk-metrics' }>): MetricFacts {
  const rows = (message.body.metrics ?? []).flatMap((metric) => {
    const environment = metricsEnvironment(message, metric.environment);
    if (!environment || !fits(metric.featureName) || !fits(metric.appName) || !fits(environment)) return [];
    return [
      {
        hour: bucketHour(metric.timestamp, message.receivedAt).toISOString(),
        app: metric.appName,
        environment,
        feature: metric.featureName,
        yes: metric.yes,
        no: metric.no,
        variants: Object.entries(metric.variants ?? {}).filter(([name]) => fits(name)),
      },
    ];
  });
  const applications = (message.body.applications ?? []).flatMap((application) => {
    const environment = metricsEnvironment(message, application.environment);
    return environment && application.appName !== undefined && fits(application.appName)
      ? [{ ...application, appName: application.appName, environment }]
      : [];
  });
  const apps = new Set([...applications.map((application) => application.appName), ...rows.map((row) => row.app)]);
  const instances = applications.flatMap((application) =>
    application.instanceId && fits(application.instanceId)
      ? [
          {
            app: application.appName,
            instanceId: application.instanceId,
            environment: application.environment,
            sdkVersion: application.sdkVersion ?? null,
            frontend: false,
          },
        ]
      : [],
  );
  return { apps: [...apps], rows, instances };
}
