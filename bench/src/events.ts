import { httpClient, isolate, startServiceProcess } from '@bunting/test-stack';
import { READS, measureEventSearch } from './event-search.ts';

/**
 * `npm run bench:events`: only the event log's reads over a seeded table (what `bench:scale` ends with), on an
 * all-in-one process. `SCALE_EVENTS` sets the number of events seeded (default 1,000,000; about two minutes).
 */
const adminToken = '*:*.events-admin';
const isolation = await isolate();
const server = await startServiceProcess('all', {
  ...isolation.env,
  LOG_LEVEL: 'error',
  INIT_ADMIN_API_TOKENS: adminToken,
});
try {
  const eventCount = Number(process.env.SCALE_EVENTS ?? 1_000_000);
  const search = await measureEventSearch(
    httpClient(server.url, { authorization: adminToken }),
    isolation.databaseUrl,
    eventCount,
  );
  console.log(
    `\nThe event log's reads with ${eventCount.toLocaleString('en')} more events in its table (seeded in ${search.seedSeconds} s; ${READS} reads each, one at a time):`,
  );
  console.table(search.rows);
} finally {
  await server.stop();
  await isolation.cleanup();
}
