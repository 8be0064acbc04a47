import {
  httpClient,
  isolate,
  startPrivateNats,
  startPrivateNatsCluster,
  startServiceProcess,
} from '@bunting/test-stack';
import { measurePropagation } from './sdk-edge.ts';
import { round, summarize } from './stats.ts';

/**
 * `npm run bench:cluster`: propagation (admin change -> visible on /api/frontend) with NATS as one server against a
 * three-node cluster with R3 streams, each an all-in-one process on its own database; rounds interleaved so the
 * host's drift falls on both alike.
 */
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const changesPerRound = 40;
const single = await startPrivateNats();
const cluster = await startPrivateNatsCluster(3);
const setups = [
  { name: 'single server (R1)', nats: single.url, replicas: '1' },
  { name: 'three-node cluster (R3)', nats: cluster.url, replicas: '3' },
];
const running = [];
try {
  for (const setup of setups) {
    const isolation = await isolate();
    const adminToken = '*:*.cluster-bench-admin';
    const frontendToken = 'default:development.cluster-bench-frontend';
    const server = await startServiceProcess('all', {
      ...isolation.env,
      LOG_LEVEL: 'error',
      NATS_URL: setup.nats,
      NATS_STREAM_REPLICAS: setup.replicas,
      INIT_ADMIN_API_TOKENS: adminToken,
      INIT_FRONTEND_API_TOKENS: frontendToken,
    });
    running.push({
      ...setup,
      isolation,
      server,
      admin: httpClient(server.url, { authorization: adminToken }),
      frontendToken,
      samples: [] as { p50Ms: number; p99Ms: number }[],
    });
  }
  for (let index = 0; index < rounds; index += 1) {
    for (const setup of running) {
      setup.samples.push(
        await measurePropagation({
          admin: setup.admin,
          url: setup.server.url,
          frontendToken: setup.frontendToken,
          changes: changesPerRound,
        }),
      );
    }
  }
  console.log(
    `\nPropagation, ${rounds} interleaved rounds of ${changesPerRound} changes (median of the rounds' p50 and p99, ms):`,
  );
  console.table(
    Object.fromEntries(
      running.map((setup) => [
        setup.name,
        {
          p50Ms: round(summarize(setup.samples.map((sample) => sample.p50Ms)).p50),
          p99Ms: round(summarize(setup.samples.map((sample) => sample.p99Ms)).p50),
          worstRoundP99Ms: round(Math.max(...setup.samples.map((sample) => sample.p99Ms))),
        },
      ]),
    ),
  );
} finally {
  for (const setup of running) {
    await setup.server.stop();
    await setup.isolation.cleanup();
  }
  await cluster.dispose();
  await single.dispose();
}
