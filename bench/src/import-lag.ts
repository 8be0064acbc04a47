import { readFileSync } from 'node:fs';
import { httpClient, isolate, rolloutExport, startServiceProcess } from '@bunting/test-stack';
import { round } from './stats.ts';

/**
 * `npm run bench:import`: one `features-batch/import` of `IMPORT_FLAGS` flags (default 5,000) on an all-in-one
 * process, and how long after its answer the event log holds every event of it (the import's events are published
 * once it commits; an import writes three per flag).
 */
const count = Number(process.env.IMPORT_FLAGS ?? 5000);
const adminToken = '*:*.import-admin';
const isolation = await isolate();
const server = await startServiceProcess('all', {
  ...isolation.env,
  LOG_LEVEL: 'error',
  INIT_ADMIN_API_TOKENS: adminToken,
  NODE_OPTIONS: process.env.IMPORT_NODE_OPTIONS ?? '',
});
const admin = httpClient(server.url, { authorization: adminToken });
const rssMiB = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
try {
  await admin.post('/api/admin/projects', { id: 'imports', name: 'imports' });
  const names = Array.from({ length: count }, (_, index) => `imported-${index}`);
  const data = rolloutExport(names, 'imports');
  const rssBefore = rssMiB();
  const started = performance.now();
  const imported = await admin.post('/api/admin/features-batch/import', {
    project: 'imports',
    environment: 'development',
    data,
  });
  const answered = performance.now();
  if (imported.status !== 200) throw new Error(`import: ${imported.status} ${imported.text}`);
  // features-imported is the import's last event: once it is in the log, so is every other.
  while (
    (await admin.post('/api/admin/events/search', { project: 'imports', type: 'features-imported' })).body.events
      .length === 0
  ) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const held = performance.now();
  const { body: logged } = await admin.post('/api/admin/events/search', { project: 'imports', limit: 1 });
  console.table([
    {
      flags: count,
      'import answered (s)': round((answered - started) / 1000, 2),
      'events in the log': logged.totalEvents,
      'log complete after the answer (s)': round((held - answered) / 1000, 2),
      'events stored/s': round(logged.totalEvents / ((held - started) / 1000)),
      'RSS before -> after (MiB)': `${round(rssBefore)} -> ${round(rssMiB())}`,
    },
  ]);
} finally {
  await server.stop();
  await isolation.cleanup();
}
