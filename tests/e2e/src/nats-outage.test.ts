import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import {
  eventLogTotalAfterMarker,
  eventually,
  startPrivateNats,
  startTestStack,
  type TestStack,
} from '@bunting/test-stack';

/**
 * The outbox promise: with NATS down, admin writes still succeed, and when NATS comes back every event
 * reaches the event log exactly once. Runs against a private nats-server this test stops and starts.
 */
let nats: Awaited<ReturnType<typeof startPrivateNats>>;
let stack: TestStack;

beforeAll(async () => {
  nats = await startPrivateNats();
  stack = await startTestStack({ env: { NATS_URL: nats.url } });
});
afterAll(async () => {
  await nats?.start().catch(() => undefined);
  await stack?.dispose();
  await nats?.dispose();
});

async function createdFeatures() {
  const reply = await stack.admin.post('/api/admin/events/search', { type: 'feature-created', limit: 100 });
  return reply.status === 200 ? (reply.body.events as { featureName: string }[]).map((e) => e.featureName) : undefined;
}

describe('a NATS outage delays events but loses none', () => {
  it('accepts writes while NATS is down and delivers each event once after it returns', async () => {
    await stack.admin.post('/api/admin/projects/default/features', { name: 'before-outage' });
    await eventually(async () => (await createdFeatures())?.includes('before-outage'));

    await nats.stop();
    const during: string[] = [];
    for (let index = 0; index < 20; index += 1) {
      const name = `during-outage-${index}`;
      const reply = await stack.admin.post('/api/admin/projects/default/features', { name });
      expect(reply.status).toBe(201);
      during.push(name);
    }
    const enabled = await stack.admin.post(
      '/api/admin/projects/default/features/during-outage-0/environments/development/on',
    );
    expect(enabled.status).toBe(200);

    await nats.start();
    const names = await eventually(
      async () => {
        const found = await createdFeatures();
        return found && during.every((name) => found.includes(name)) && found;
      },
      { timeoutMs: 30_000 },
    );
    expect(names.filter((name) => name.startsWith('during-outage-')).sort()).toEqual([...during].sort());
    expect(new Set(names).size).toBe(names.length);

    const toggles = await eventually(async () => {
      const reply = await stack.admin.post('/api/admin/events/search', { feature: 'during-outage-0' });
      const types = (reply.body.events as { type: string }[]).map((e) => e.type).reverse();
      return types.length >= 3 && types;
    });
    expect(toggles).toEqual(['feature-created', 'feature-strategy-add', 'feature-environment-enabled']);
  }, 60_000);

  it('stores a re-sent event once (relay replay after a crash between publish and mark)', async () => {
    const before = (await stack.admin.get('/api/admin/events')).body.totalEvents as number;
    const client = new pg.Client({ connectionString: stack.isolation.databaseUrl });
    await client.connect();
    const replayed = await client.query('update admin.outbox set published_at = null');
    await client.end();
    expect(replayed.rowCount).toBeGreaterThan(20);
    await eventually(async () => {
      const check = new pg.Client({ connectionString: stack.isolation.databaseUrl });
      await check.connect();
      const pending = await check.query('select count(*)::int as n from admin.outbox where published_at is null');
      await check.end();
      return pending.rows[0].n === 0;
    });
    // Replays were published before the marker, so once it is stored they have all been handled: only the marker is new.
    expect(await eventLogTotalAfterMarker(stack.admin)).toBe(before + 1);
  });
});
