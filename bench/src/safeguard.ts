import { Unleash } from 'unleash-client';
import { httpClient, isolate, startServiceProcess, stopUnleashSdk } from '@bunting/test-stack';
import { round, summarize } from './stats.ts';

/**
 * `npm run bench:safeguard`: how long from an application's error counter crossing a safeguard's threshold until
 * SDKs see the flag off, with the default evaluation interval (SAFEGUARD_EVALUATION_MS, 5 s). One real Node SDK is
 * the application (it counts errors and sends them with its metrics every METRICS_SECONDS, default 10); two more
 * watch the flags, one polling at the Node SDK's default 15 s and one streaming. TRIALS flags (default 30), each
 * guarded by its own counter, are tripped one after another at uneven moments, so the trials fall anywhere in the
 * SDKs' and the evaluator's cycles.
 */
const adminToken = '*:*.safeguard-admin';
const clientToken = 'default:development.safeguard-client';
const TRIALS = Number(process.env.TRIALS ?? 30);
const METRICS_SECONDS = Number(process.env.METRICS_SECONDS ?? 10);
const flagOf = (trial: number) => `guarded-${trial}`;
const counterOf = (trial: number) => `errors_${trial}`;

const isolation = await isolate();
const server = await startServiceProcess('all', {
  ...isolation.env,
  LOG_LEVEL: 'error',
  INIT_ADMIN_API_TOKENS: adminToken,
  INIT_CLIENT_API_TOKENS: clientToken,
});
const sdks: Unleash[] = [];
const sdk = (options: Partial<ConstructorParameters<typeof Unleash>[0]>) => {
  const client = new Unleash({
    url: `${server.url}/api/`,
    appName: 'safeguard-bench',
    customHeaders: { Authorization: clientToken },
    ...options,
  });
  client.on('error', () => undefined);
  client.on('warn', () => undefined);
  sdks.push(client);
  return client;
};
const synchronized = (client: Unleash) => new Promise<void>((resolve) => client.once('synchronized', () => resolve()));

try {
  const admin = httpClient(server.url, { authorization: adminToken });
  for (let trial = 0; trial < TRIALS; trial += 1) {
    const flag = `/api/admin/projects/default/features/${flagOf(trial)}/environments/development`;
    await admin.post('/api/admin/projects/default/features', { name: flagOf(trial) });
    await admin.post(`${flag}/on`);
    const guarded = await admin.put(`${flag}/safeguards`, {
      impactMetric: { metricName: counterOf(trial), timeRange: 'hour', aggregationMode: 'count', labelSelectors: {} },
      triggerCondition: { operator: '>', threshold: 5 },
    });
    if (guarded.status !== 200)
      throw new Error(`safeguard on ${flagOf(trial)}: ${guarded.status} ${JSON.stringify(guarded.body)}`);
  }

  const app = sdk({ metricsInterval: METRICS_SECONDS * 1000, refreshInterval: 15_000 });
  for (let trial = 0; trial < TRIALS; trial += 1)
    app.impactMetrics.defineCounter(counterOf(trial), 'Errors the application met');
  const polling = sdk({ disableMetrics: true });
  const streaming = sdk({ disableMetrics: true, refreshInterval: 600_000, experimentalMode: { type: 'streaming' } });
  await Promise.all([synchronized(app), synchronized(polling), synchronized(streaming)]);
  if (![polling, streaming].every((client) => client.isEnabled(flagOf(0))))
    throw new Error('the watching SDKs do not see the flags on');

  const sends: number[] = [];
  app.on('sent', () => sends.push(Date.now()));
  const crossed: number[] = [];
  const seenOff = { polling: new Map<number, number>(), streaming: new Map<number, number>() };
  const watcher = setInterval(() => {
    const now = Date.now();
    crossed.forEach((_, trial) => {
      if (!seenOff.polling.has(trial) && !polling.isEnabled(flagOf(trial))) seenOff.polling.set(trial, now);
      if (!seenOff.streaming.has(trial) && !streaming.isEnabled(flagOf(trial))) seenOff.streaming.set(trial, now);
    });
  }, 20);

  // Trips spread unevenly over about two seconds each, so they land all over the SDKs' and the evaluator's cycles.
  for (let trial = 0; trial < TRIALS; trial += 1) {
    await new Promise((resolve) => setTimeout(resolve, 1_000 + Math.random() * 2_000));
    app.impactMetrics.incrementCounter(counterOf(trial), 10);
    crossed[trial] = Date.now();
  }
  const deadline = Date.now() + 120_000;
  while ((seenOff.polling.size < TRIALS || seenOff.streaming.size < TRIALS) && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 100));
  clearInterval(watcher);

  const seconds = (values: number[]) =>
    Object.fromEntries(
      Object.entries(summarize(values)).map(([key, value]) => [key, key === 'count' ? value : round(value / 1000, 2)]),
    );
  const sentAfter = (at: number) => sends.find((time) => time >= at) ?? Number.NaN;
  const lateness = (seen: Map<number, number>) => [...seen].map(([trial, at]) => at - crossed[trial]!);
  console.log(
    `\nA flag safeguard (count over the hour > 5) tripped ${TRIALS} times by the real Node SDK's counter; evaluation every 5 s (the default); the application sends its metrics every ${METRICS_SECONDS} s. Seconds:`,
  );
  console.table({
    'the application sends the crossing': seconds(crossed.map((at) => sentAfter(at) - at)),
    'sent to flag off for a streaming SDK': seconds(
      [...seenOff.streaming].map(([trial, at]) => at - sentAfter(crossed[trial]!)),
    ),
    'crossing to off, streaming SDK': seconds(lateness(seenOff.streaming)),
    'crossing to off, polling SDK (15 s)': seconds(lateness(seenOff.polling)),
  });
  const missing = TRIALS - Math.min(seenOff.polling.size, seenOff.streaming.size);
  if (missing > 0) console.log(`${missing} trials never saw their flag off within two minutes`);
} finally {
  for (const client of sdks) stopUnleashSdk(client);
  await server.stop();
  await isolation.cleanup();
}
