import { afterAll, beforeAll, expect, it } from 'vitest';
import { MetricsMessage } from '@bunting/contracts';
import { createOutbox, sql } from '@bunting/platform';
import { startTestStack, type TestStack } from '@bunting/test-stack';
import { z } from 'zod';
import { applicationAnnouncer } from '../applications/application-events.ts';
import { recordMetrics, recordMetricsRun, type SequencedMetrics } from './metric-recording.ts';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ target: 'admin-api,insights' });
});
afterAll(() => stack?.dispose());

/** A fleet's posts for applications named with `prefix`: metrics with variants, registrations, a bulk post. */
function fleet(prefix: string, firstSequence: number): SequencedMetrics[] {
  const messages: MetricsMessage[] = [];
  for (let index = 0; index < 40; index += 1) {
    const app = `${prefix}-app-${index % 3}`;
    // Some arrive out of order: a sighting's time is the latest, not the last.
    const receivedAt = new Date(Date.UTC(2024, 4, 1, 10, index >= 36 && index % 2 === 1 ? 0 : index)).toISOString();
    if (index % 9 === 4) {
      messages.push(
        MetricsMessage.parse({
          kind: 'client-register',
          receivedAt,
          environment: 'development',
          tokenName: 't',
          body: {
            appName: app,
            instanceId: `i-${index % 4}`,
            sdkVersion: `unleash-client-node:6.${index}.0`,
            strategies: ['default', `s-${index}`],
            started: receivedAt,
            interval: 10_000,
          },
        }),
      );
      continue;
    }
    messages.push(
      MetricsMessage.parse({
        kind: 'client-metrics',
        receivedAt,
        environment: index % 2 === 0 ? 'development' : 'production',
        tokenName: 't',
        body: {
          appName: app,
          instanceId: `i-${index % 4}`,
          ...(index % 5 === 0 ? {} : { sdkVersion: `unleash-client-node:6.${index}.0` }),
          bucket: {
            start: receivedAt,
            stop: receivedAt,
            toggles: {
              alpha: { yes: index, no: 1, variants: { blue: index % 3, red: 1 } },
              beta: { yes: 1, no: index % 4 },
            },
          },
        },
      }),
    );
  }
  messages.push(
    MetricsMessage.parse({
      kind: 'bulk-metrics',
      receivedAt: new Date(Date.UTC(2024, 4, 1, 11, 5)).toISOString(),
      environment: 'development',
      tokenName: 't',
      allowedEnvironments: ['development'],
      body: {
        applications: [{ appName: `${prefix}-edge`, instanceId: 'edge-1', environment: 'development' }],
        metrics: [
          {
            featureName: 'alpha',
            appName: `${prefix}-edge`,
            environment: 'development',
            timestamp: new Date(Date.UTC(2024, 4, 1, 11)).toISOString(),
            yes: 5,
            no: 2,
          },
        ],
      },
    }),
  );
  return messages.map((message, index) => ({ message, sequence: firstSequence + index }));
}

/** What insights holds about the applications named with `prefix`, the prefix taken out. */
async function heldFor(prefix: string) {
  const strip = <T extends { app: string }>(rows: readonly T[]) =>
    rows.map((row) => ({ ...row, app: row.app.slice(prefix.length) }));
  const hours = await stack.db.any(sql.type(
    z.object({
      app: z.string(),
      hour: z.string(),
      environment: z.string(),
      feature: z.string(),
      yes: z.number(),
      no: z.number(),
    }),
  )`
    select app_name as app, hour::text, environment, feature_name as feature, yes::int, no::int from insights.metric_hours
    where app_name like ${`${prefix}-%`} order by app_name, hour, environment, feature_name`);
  const variants = await stack.db.any(sql.type(z.object({ app: z.string(), variant: z.string(), count: z.number() }))`
    select app_name as app, variant, sum(count)::int as count from insights.metric_variant_hours
    where app_name like ${`${prefix}-%`} group by app_name, variant order by app_name, variant`);
  const instances = await stack.db.any(sql.type(
    z.object({
      app: z.string(),
      instance: z.string(),
      environment: z.string(),
      version: z.string().nullable(),
      seen: z.string(),
    }),
  )`
    select app_name as app, instance_id as instance, environment, sdk_version as version, last_seen::text as seen from insights.application_instances
    where app_name like ${`${prefix}-%`} order by app_name, instance_id, environment`);
  const applications = await stack.db.any(sql.type(
    z.object({ app: z.string(), version: z.string().nullable(), strategies: z.unknown(), seen: z.string() }),
  )`
    select app_name as app, sdk_version as version, strategies, last_seen::text as seen from insights.applications
    where app_name like ${`${prefix}-%`} order by app_name`);
  return {
    hours: strip(hours),
    variants: strip(variants),
    instances: strip(instances),
    applications: strip(applications),
  };
}

it('records a run of messages as recording them one by one does, each message once however often it comes', async () => {
  const announce = applicationAnnouncer(createOutbox('insights'), stack.messaging);
  for (const { message, sequence } of fleet('single', 7_000_000))
    await recordMetrics(stack.db, message, sequence, announce);
  const runs = fleet('runs', 7_100_000);
  // Runs of 25 (each instance is seen several times in one); the first run again, and a run that repeats a message
  // within itself and one from before.
  for (let start = 0; start < runs.length; start += 25)
    await recordMetricsRun(stack.db, runs.slice(start, start + 25), announce);
  await recordMetricsRun(stack.db, runs.slice(0, 25), announce);
  await recordMetricsRun(stack.db, [runs[3]!, runs[3]!, runs[30]!], announce);
  const single = await heldFor('single');
  expect(single.hours.length).toBeGreaterThan(4);
  expect(single.variants.length).toBeGreaterThan(0);
  expect(single.instances.length).toBeGreaterThan(4);
  expect(await heldFor('runs')).toEqual(single);
});
