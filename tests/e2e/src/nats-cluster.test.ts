import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { ensureStream } from '@bunting/platform';
import { eventually, httpClient, startPrivateNatsCluster, startTestStack, type TestStack } from '@bunting/test-stack';

/**
 * Bunting on a three-node JetStream cluster with every stream kept on all three (R3): losing the node that leads the
 * event stream (even with its disk), or two nodes at once, loses no acknowledged change and never stops the SDK edge.
 */
let cluster: Awaited<ReturnType<typeof startPrivateNatsCluster>>;
let stack: TestStack;
const frontendToken = 'default:development.cluster-frontend';
/** A token for an environment no request asks for before the quorum goes. */
const productionToken = 'default:production.cluster-frontend';
const flagPath = (name: string) => `/api/admin/projects/default/features/${name}`;

beforeAll(async () => {
  cluster = await startPrivateNatsCluster(3);
  stack = await startTestStack({
    env: {
      NATS_URL: cluster.url,
      NATS_STREAM_REPLICAS: '3',
      INIT_FRONTEND_API_TOKENS: `${frontendToken},${productionToken}`,
    },
  });
}, 90_000);
afterAll(async () => {
  for (const node of cluster?.nodes ?? []) await node.start().catch(() => undefined);
  await stack?.dispose();
  await cluster?.dispose();
});

/**
 * Waits until every stream and every durable consumer on it has a leader and all its replicas are current: a test
 * starts from a whole cluster, not from one still electing after the previous test restarted a node.
 */
async function clusterSettled(): Promise<void> {
  const { jsm, names } = stack.messaging;
  await eventually(
    async () => {
      for (const stream of [names.eventsStream, names.metricsStream, names.signalsStream]) {
        const { cluster: state } = await jsm.streams.info(stream);
        const behind = (state?.replicas ?? []).filter((peer) => !peer.current).map((peer) => peer.name);
        if (!state?.leader || state.replicas?.length !== 2 || behind.length > 0) {
          throw new Error(`${stream}: leader ${state?.leader}, replicas ${JSON.stringify(state?.replicas)}`);
        }
        for await (const consumer of jsm.consumers.list(stream)) {
          if (consumer.config.durable_name && !consumer.cluster?.leader)
            throw new Error(`${stream}/${consumer.name}: no leader`);
        }
      }
      return true;
    },
    { timeoutMs: 60_000, intervalMs: 200 },
  );
}

async function streamInfo() {
  return stack.messaging.jsm.streams.info(stack.messaging.names.eventsStream);
}

/**
 * The events of one flag in the event log, oldest first. The event log checks credentials with admin-api over NATS,
 * so while the stack's connection moves to a live node it answers 503 with Retry-After: that is waited out, never
 * read as "no events".
 */
async function eventsOf(flag: string): Promise<{ type: string }[]> {
  const reply = await eventually(
    async () => {
      const answer = await stack.admin.get(`/api/admin/events/${flag}`);
      return answer.status === 503 && answer.headers.get('retry-after') ? undefined : answer;
    },
    { timeoutMs: 30_000, intervalMs: 100 },
  );
  expect(reply.status).toBe(200);
  return [...(reply.body.events as { type: string }[])].reverse();
}

async function pendingOutbox(): Promise<number> {
  const client = new pg.Client({ connectionString: stack.isolation.databaseUrl });
  await client.connect();
  try {
    return (await client.query('select count(*)::int as n from admin.outbox where published_at is null')).rows[0]
      .n as number;
  } finally {
    await client.end();
  }
}

const frontend = () => httpClient(stack.url, { authorization: frontendToken });
const sdkSees = async (flag: string) =>
  ((await frontend().get('/api/frontend')).body.toggles as { name: string }[] | undefined)?.some(
    (toggle) => toggle.name === flag,
  ) ?? false;

/** Toggles a flag `times` times, doing `midway` after a third; every write must be acknowledged. */
async function toggle(flag: string, times: number, midway: () => Promise<void>) {
  for (let index = 0; index < times; index += 1) {
    if (index === Math.floor(times / 3)) await midway();
    const reply = await stack.admin.post(
      `${flagPath(flag)}/environments/development/${index % 2 === 0 ? 'on' : 'off'}`,
    );
    expect(reply.status, `toggle ${index}`).toBe(200);
  }
}

describe('a three-node NATS cluster with replicated streams', () => {
  beforeEach(clusterSettled, 90_000);

  it('keeps every stream on three servers', async () => {
    const info = await streamInfo();
    expect(info.config.num_replicas).toBe(3);
    expect(info.cluster?.replicas?.length).toBe(2);
  });

  it('converges an existing stream to a changed replica count, and creating it again changes nothing', async () => {
    const { jsm, names } = stack.messaging;
    const spec = {
      name: `${names.eventsStream}_converge`,
      subjects: [`${stack.isolation.namespace}.converge.>`],
      maxAgeMs: 3_600_000,
    };
    await ensureStream(jsm, { ...spec, replicas: 1 });
    expect((await jsm.streams.info(spec.name)).config.num_replicas).toBe(1);
    await ensureStream(jsm, { ...spec, replicas: 3 });
    await ensureStream(jsm, { ...spec, replicas: 3 });
    const info = await eventually(
      async () => {
        const current = await jsm.streams.info(spec.name);
        return current.cluster?.replicas?.length === 2 && current;
      },
      { timeoutMs: 30_000 },
    );
    expect(info.config.num_replicas).toBe(3);
    await jsm.streams.delete(spec.name);
  });

  it("loses nothing when the event stream's leader dies mid-writes, and carries on without a restart", async () => {
    await stack.admin.post('/api/admin/projects/default/features', { name: 'leader-loss' });
    const leader = (await streamInfo()).cluster!.leader!;
    // How long the stream takes no new message after the kill: sampled alongside the writes.
    let gapMs: number | undefined;
    let sampling: NodeJS.Timeout | undefined;
    await toggle('leader-loss', 100, async () => {
      const seqAtKill = (await streamInfo()).state.last_seq;
      const killedAt = performance.now();
      await cluster.node(leader).kill();
      sampling = setInterval(() => {
        void streamInfo().then(
          (info) => {
            if (gapMs === undefined && info.state.last_seq > seqAtKill) gapMs = performance.now() - killedAt;
          },
          () => undefined,
        );
      }, 20);
    });
    const resumed = await eventually(
      async () => gapMs !== undefined && (await streamInfo().catch(() => undefined))?.cluster?.leader,
      { timeoutMs: 30_000 },
    );
    clearInterval(sampling);
    console.log(
      `event stream leader ${leader} killed mid-writes: the next event was stored ${Math.round(gapMs!)} ms later, under ${resumed}`,
    );
    expect(resumed).not.toBe(leader);
    await cluster.node(leader).start();

    const toggles = await eventually(
      async () => {
        const types = (await eventsOf('leader-loss')).filter((event) => event.type.startsWith('feature-environment-'));
        return types.length >= 100 && types;
      },
      { timeoutMs: 60_000 },
    );
    // Each acknowledged toggle once, in order: on, off, on, ...
    expect(toggles.map((event) => event.type)).toEqual(
      Array.from({ length: 100 }, (_, index) =>
        index % 2 === 0 ? 'feature-environment-enabled' : 'feature-environment-disabled',
      ),
    );
    // Rows published while a row of the other stream (the configuration feed) waited for its leader stay pending until
    // that row goes too: the outbox drains, it need not have drained the moment the event log is whole.
    await eventually(async () => (await pendingOutbox()) === 0, { timeoutMs: 60_000 });
    // The last toggle switched it off; the SDK edge agrees.
    await stack.admin.post(`${flagPath('leader-loss')}/environments/development/on`);
    await eventually(() => sdkSees('leader-loss'), { timeoutMs: 10_000 });
  }, 120_000);

  it('lets a node that lost its disk catch up from the others', async () => {
    await stack.admin.post('/api/admin/projects/default/features', { name: 'disk-loss' });
    const leader = (await streamInfo()).cluster!.leader!;
    const victim = cluster.nodes.find((node) => node.name !== leader)!;
    await victim.kill();
    victim.wipe();
    await toggle('disk-loss', 30, async () => undefined);
    await victim.start();
    // The wiped node is a current replica again, holding every message.
    await eventually(
      async () => {
        const info = await streamInfo();
        const replica = info.cluster?.replicas?.find((peer) => peer.name === victim.name);
        return replica?.current === true && (replica.lag ?? 0) === 0;
      },
      { timeoutMs: 60_000 },
    );
    const types = await eventually(
      async () => {
        const found = (await eventsOf('disk-loss')).filter((event) => event.type.startsWith('feature-environment-'));
        return found.length >= 30 && found;
      },
      { timeoutMs: 30_000 },
    );
    expect(types).toHaveLength(30);
    // With the old leader gone too, the caught-up node serves the stream with a third node: nothing is missing.
    await cluster.node(leader).kill();
    // A new leader counts what it holds as it applies its log: under load the first answer after the election showed
    // 71 of 130 (a full suite on 2 cores). Missing messages would never show, so waiting for them still fails on a loss.
    const info = await eventually(
      async () => {
        const current = await streamInfo().catch(() => undefined);
        return current?.cluster?.leader && current.state.messages >= 130 ? current : undefined;
      },
      { timeoutMs: 30_000 },
    );
    expect(info.state.messages).toBeGreaterThanOrEqual(130);
    await cluster.node(leader).start();
  }, 150_000);

  it('without a quorum keeps writes in the outbox and the SDK edge answering, then delivers each once', async () => {
    await stack.admin.post('/api/admin/projects/default/features', { name: 'no-quorum' });
    await eventually(async () => (await eventsOf('no-quorum')).length === 1, { timeoutMs: 30_000 });
    // The edge holds the environment before the quorum goes (run alone, this test is the first to ask for it).
    await eventually(async () => (await frontend().get('/api/frontend')).status === 200, { timeoutMs: 10_000 });
    const [first, second] = cluster.nodes;
    await first!.kill();
    await second!.kill();
    for (let index = 0; index < 10; index += 1) {
      expect(
        (await stack.admin.post(`${flagPath('no-quorum')}/environments/development/${index % 2 === 0 ? 'on' : 'off'}`))
          .status,
      ).toBe(200);
    }
    expect(await pendingOutbox()).toBeGreaterThan(0);
    expect((await eventsOf('no-quorum')).length).toBe(1);
    expect((await frontend().get('/api/frontend')).status).toBe(200);
    // An environment the edge never held: served if its stream still answers, else a 503 to retry, said once the
    // stream does not answer (not after waiting on for a hydration that cannot come). Under a full suite it was once
    // read in time, so either is right; never a hang or a 500.
    const askedAt = Date.now();
    const unheld = await httpClient(stack.url, { authorization: productionToken }).get('/api/frontend');
    console.log(`no quorum: an environment never held answered ${unheld.status} in ${Date.now() - askedAt} ms`);
    expect([200, 503]).toContain(unheld.status);
    if (unheld.status === 503) expect(unheld.headers.get('retry-after')).toBeTruthy();

    await first!.start();
    await second!.start();
    // Once the event stream has a leader again, every write held meanwhile is published and in the log. Alone it takes
    // about a second; under a full suite on 2 cores the readers' reopening can take several (10 s was once too few), so
    // the time is printed, and the bound only says that nothing stays held.
    await eventually(async () => Boolean((await streamInfo()).cluster?.leader), { timeoutMs: 60_000, intervalMs: 100 });
    const led = Date.now();
    const types = await eventually(
      async () => {
        const found = (await eventsOf('no-quorum')).filter((event) => event.type.startsWith('feature-environment-'));
        if (found.length < 10)
          throw new Error(`${found.length} of 10 held writes in the event log, ${await pendingOutbox()} rows pending`);
        return found;
      },
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    console.log(
      `quorum back: the held writes were in the event log ${Date.now() - led} ms after the stream had a leader`,
    );
    expect(types).toHaveLength(10);
    await eventually(async () => (await pendingOutbox()) === 0, { timeoutMs: 10_000 });
    // What happened is visible to an operator: the relay's backlog and failed passes (none when the client only held
    // its publishes while it reconnected), each reader's quiet time and restarts.
    const exposition = (await stack.anonymous.get('/internal-backstage/prometheus')).text;
    expect(exposition).toContain('# TYPE bunting_outbox_publish_failures_total counter');
    expect(exposition).toContain('# TYPE bunting_stream_reader_restarts_total counter');
    expect(exposition).toMatch(/^bunting_stream_reader_quiet_seconds\{reader="store:[^"]+"\} /m);
    expect(exposition).toMatch(/^bunting_outbox_pending_rows\{schema="admin"\} 0$/m);
  }, 180_000);
});
