import { describe, expect, it } from 'vitest';
import { eventually, httpClient, isolate, startServiceProcess, type ServiceProcess } from '@bunting/test-stack';
import { startAuditReceiver } from './audit-receiver.ts';

/**
 * Audit delivery across replicas and restarts: two admin-api processes share one destination and one of them
 * delivers at a time; killing them (kill -9) while they deliver loses nothing and keeps the order.
 */
describe('audit delivery with replicas', () => {
  it('has one deliverer at a time, and loses nothing when every process is killed while delivering', async () => {
    const isolation = await isolate();
    const receiver = await startAuditReceiver('/audit');
    // Each request takes a while, so a run is often in flight when a process dies.
    receiver.delayMs = 40;
    const env = {
      ...isolation.env,
      INIT_ADMIN_API_TOKENS: '*:*.audit-replicas',
      AUDIT_DELIVERY_TICK_MS: '200',
      // Long enough that a handover by lapse and one by letting go are told apart.
      AUDIT_DELIVERY_LEASE_MS: '8000',
      AUDIT_DELIVERY_MAX_RETRY_MS: '500',
    };
    const processes: ServiceProcess[] = [];
    const start = async () => {
      const started = await startServiceProcess('admin-api', env);
      processes.push(started);
      return started;
    };
    const client = (process: ServiceProcess) => httpClient(process.url, { authorization: '*:*.audit-replicas' });
    const received = () =>
      receiver.received.flatMap(
        (request) => (JSON.parse(request.body) as { events: { type: string; featureName: string | null }[] }).events,
      );
    const createdNames = () => [
      ...new Set(
        received()
          .filter((event) => event.type === 'feature-created')
          .map((event) => event.featureName),
      ),
    ];
    // Names in the order their flags were made (one writer at a time, except where the test says otherwise).
    const made: string[] = [];
    let next = 0;
    const create = async (process: ServiceProcess, count: number) => {
      for (let index = 0; index < count; index += 1) {
        const name = `replica-${next++}`;
        expect((await client(process).post('/api/admin/projects/default/features', { name })).status).toBe(201);
        made.push(name);
      }
    };
    try {
      const [a, b] = [await start(), await start()];
      const added = await client(a).post('/api/admin/addons', {
        provider: 'signed-webhook',
        enabled: true,
        parameters: { url: receiver.url, secret: 'replica-secret-of-length' },
        events: ['feature-created'],
      });
      expect(added.status).toBe(200);
      // Both replicas write at once: every flag arrives (their order is the stream's, which the test does not know).
      await Promise.all([create(a, 10), create(b, 10)]);
      await eventually(async () => createdNames().length === made.length, { timeoutMs: 20_000 });
      expect(new Set(createdNames())).toEqual(new Set(made));
      // Never two requests at once: one replica delivers, one run after the other.
      expect(receiver.inFlight.most).toBe(1);
      const concurrent = made.length;

      // Both die (kill -9) while runs are in flight; a new process takes over once their leases lapse.
      const burst = create(b, 20);
      await eventually(async () => made.length >= 25);
      await a.kill();
      await burst;
      await b.kill();
      const c = await start();
      await create(c, 5);
      await eventually(async () => createdNames().length === made.length, { timeoutMs: 40_000 });
      // In order, whatever was sent twice: first appearances follow creation.
      expect(createdNames().slice(concurrent)).toEqual(made.slice(concurrent));
      expect(receiver.inFlight.most).toBe(1);

      // A graceful stop lets its lease go at once: the next process delivers without waiting for it to lapse.
      await c.stop();
      const d = await start();
      const before = Date.now();
      await create(d, 1);
      await eventually(async () => createdNames().length === made.length, { timeoutMs: 10_000 });
      expect(Date.now() - before).toBeLessThan(6000);
    } finally {
      for (const process of processes) await process.stop().catch(() => undefined);
      await receiver.close();
      await isolation.cleanup();
    }
  }, 120_000);
});
