import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { httpClient, isolate, startServiceProcess } from '@bunting/test-stack';
import { round, summarize } from './stats.ts';

/**
 * `npm run bench:audit`: how far behind an audit destination (a signed webhook) runs under a steady stream of changes
 * (AUDIT_RATE a second, default 100, for AUDIT_STEADY_S, default 60), and after its receiver was away for
 * AUDIT_DOWN_S (default 600) while the changes went on: how long it takes to catch up, the lag of what was made
 * after it came back, and the process's memory while the backlog grew. Lag is the receiver's clock when an event
 * arrived minus the event's own time (one machine: one clock).
 */
const rate = Number(process.env.AUDIT_RATE ?? 100);
const steadySeconds = Number(process.env.AUDIT_STEADY_S ?? 60);
const downSeconds = Number(process.env.AUDIT_DOWN_S ?? 600);
const adminToken = '*:*.audit-bench';
const isolation = await isolate();
const server = await startServiceProcess('all', {
  ...isolation.env,
  LOG_LEVEL: 'error',
  INIT_ADMIN_API_TOKENS: adminToken,
  AUDIT_DELIVERY_TICK_MS: '1000',
});
const admin = httpClient(server.url, { authorization: adminToken });
/** V8's heap in use (MiB), from the process's own metrics: what it holds, apart from what it keeps in reserve. */
const heapMiB = async () => {
  const text = (await admin.get('/internal-backstage/prometheus')).text;
  const line = text.split('\n').find((one) => one.startsWith('bunting_nodejs_heap_size_used_bytes '));
  return line ? round(Number(line.split(' ')[1]) / 1048576, 0) : Number.NaN;
};
const rssMiB = () => {
  const line = readFileSync(`/proc/${server.pid}/status`, 'utf8')
    .split('\n')
    .find((one) => one.startsWith('VmRSS:'))!;
  return round(Number(line.split(/\s+/)[1]) / 1024, 0);
};

// The receiver: when each event (by id) first arrived.
const arrived = new Map<string, number>();
const created = new Map<string, number>();
let up = true;
const receiver = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    if (!up) return void response.writeHead(503).end();
    const now = Date.now();
    for (const event of (
      JSON.parse(Buffer.concat(chunks).toString()) as { events: { id: string; createdAt: string }[] }
    ).events) {
      if (!arrived.has(event.id)) arrived.set(event.id, now);
      created.set(event.id, Date.parse(event.createdAt));
    }
    response.end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/audit`;

const flags = Array.from({ length: 20 }, (_, index) => `audit-bench-${index}`);
for (const name of flags) await admin.post('/api/admin/projects/default/features', { name });
const destination = await admin.post('/api/admin/addons', {
  provider: 'signed-webhook',
  enabled: true,
  parameters: { url: receiverUrl, secret: 'audit-bench-secret-0123', signIns: 'false' },
  events: ['feature-metadata-updated'],
});
if (destination.status !== 200) throw new Error(destination.text);

/** Changes at `rate` a second for `seconds`; the ids of the events they made are read from the receiver later. */
async function load(seconds: number): Promise<{ sent: number; failed: number }> {
  let sent = 0;
  let failed = 0;
  const started = performance.now();
  const pending = new Set<Promise<void>>();
  for (let index = 0; performance.now() - started < seconds * 1000; index++) {
    const due = started + (index * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const name = flags[index % flags.length]!;
    const request = admin
      .put(`/api/admin/projects/default/features/${name}`, { name, description: `change ${index}` })
      .then((reply) => {
        if (reply.status === 200) sent++;
        else failed++;
      })
      .finally(() => pending.delete(request));
    pending.add(request);
  }
  await Promise.all(pending);
  return { sent, failed };
}

const lagsSince = (from: number, to = Infinity) =>
  [...created.entries()].filter(([, at]) => at >= from && at < to).map(([id, at]) => arrived.get(id)! - at);

async function drained(expected: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (arrived.size >= expected) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

// Steady: the receiver is there throughout.
const steadyFrom = Date.now();
const steady = await load(steadySeconds);
await drained(steady.sent, 60_000);
const steadyLag = summarize(lagsSince(steadyFrom));
const rssBefore = rssMiB();
const heapBefore = await heapMiB();

// AUDIT_CONTROL=1: the same load for as long as the outage will last, with the receiver there, to tell what the load
// itself grows from what a waiting backlog would.
let control: { rss: number; heap: number } | undefined;
if (process.env.AUDIT_CONTROL === '1') {
  await load(downSeconds);
  control = { rss: rssMiB(), heap: await heapMiB() };
}

// Away: the receiver answers 503 while the changes go on; then it is back and the changes go on a minute more.
up = false;
const downFrom = Date.now();
const away = await load(downSeconds);
const rssAway = rssMiB();
const heapAway = await heapMiB();
up = true;
const backAt = Date.now();
const after = await load(Math.min(60, steadySeconds));
const total = steady.sent + away.sent + after.sent;
const caughtUp = await drained(total, 600_000);
const backlogArrivedBy = Math.max(
  ...[...created.entries()]
    .filter(([, at]) => at >= downFrom && at < backAt)
    .map(([id]) => arrived.get(id) ?? Infinity),
);
const afterLag = summarize(lagsSince(backAt));

const rows: [string, string][] = [
  ['changes a second (asked)', String(rate)],
  ['steady: events', String(steady.sent)],
  ['steady: lag p50 / p99 / max (ms)', `${steadyLag.p50} / ${steadyLag.p99} / ${steadyLag.max}`],
  [`receiver away ${downSeconds} s: events made meanwhile`, String(away.sent)],
  ['RSS before / at the end of the outage (MiB)', `${rssBefore} / ${rssAway}`],
  ['heap used before / at the end of the outage (MiB)', `${heapBefore} / ${heapAway}`],
  ...(control
    ? ([['control, receiver there as long: RSS / heap used (MiB)', `${control.rss} / ${control.heap}`]] as [
        string,
        string,
      ][])
    : []),
  ['back: backlog delivered within (s of its return)', String(round((backlogArrivedBy - backAt) / 1000, 1))],
  ['back: lag of events made after its return p50 / p99 (ms)', `${afterLag.p50} / ${afterLag.p99}`],
  ['all delivered', String(caughtUp)],
  ['failed writes', String(steady.failed + away.failed + after.failed)],
];
for (const [name, value] of rows) console.log(`${name.padEnd(60)} ${value}`);
await server.stop();
receiver.close();
await isolation.cleanup();
