import pg from 'pg';
import type { HttpClient } from '@bunting/test-stack';
import { round, summarize } from './stats.ts';

const TYPES = [
  'feature-created',
  'feature-updated',
  'feature-strategy-add',
  'feature-strategy-update',
  'feature-environment-enabled',
  'feature-environment-disabled',
  'feature-archived',
  'feature-tagged',
  'segment-updated',
  'project-created',
];

/**
 * Reads of each kind: enough that the p99 is a percentile (with 40 it was the slowest read, which is the first, cold one).
 */
export const READS = 200;

/**
 * Seeds the event log with `count` events straight into its table (50 projects, 10,000 flags, 100 people, four
 * years), then times the event log's reads against it: the recent list, the deprecated search and the search with
 * Unleash's operators, each READS times in a row.
 */
export async function measureEventSearch(admin: HttpClient, databaseUrl: string, count: number) {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const seeded = performance.now();
  try {
    const before = Number((await db.query('select coalesce(max(id), 0) as id from event_log.events')).rows[0].id);
    await db.query(
      `
      insert into event_log.events (uuid, type, created_at, created_by, created_by_user_id, environment, project, feature_name, data, tags)
      select gen_random_uuid(), ($2::text[])[1 + n % ${TYPES.length}], now() - make_interval(mins => ($1 - n)::int * 2),
        'person-' || (n % 100), 1000 + n % 100, case when n % 3 = 0 then 'production' else 'development' end,
        'project-' || (n % 50), 'flag-' || (n % 10000), jsonb_build_object('name', 'flag-' || (n % 10000), 'enabled', n % 2 = 0), '[]'
      from generate_series(1, $1) as n`,
      [count, TYPES],
    );
    // Straight into the table, so the log's kept count, its free-text rows and its words are brought up to date by hand.
    await db.query('update event_log.event_count set total = (select count(*) from event_log.events)');
    await db.query(
      `insert into event_log.event_text (id, body)
      select id, event_log.text_of(type, created_by, data) from event_log.events where id > $1`,
      [before],
    );
    await db.query('select event_log.add_words($1)', [before]);
    for (const table of ['events', 'event_text', 'event_word_ids', 'event_words'])
      await db.query(`vacuum analyze event_log.${table}`);
  } finally {
    await db.end();
  }
  const seedSeconds = round((performance.now() - seeded) / 1000, 1);
  const reads: [string, () => Promise<{ status: number }>][] = [
    ['GET /api/admin/events (last 100)', () => admin.get('/api/admin/events')],
    ["GET /api/admin/events/:flag (a flag's 100)", () => admin.get('/api/admin/events/flag-4321')],
    ['POST events/search {feature}', () => admin.post('/api/admin/events/search', { feature: 'flag-4321' })],
    [
      'POST events/search {project, type}',
      () => admin.post('/api/admin/events/search', { project: 'project-7', type: 'feature-updated' }),
    ],
    [
      'POST events/search {query} (one word, 10,000 events)',
      () => admin.post('/api/admin/events/search', { query: 'person-42' }),
    ],
    [
      'POST events/search {query} (111 words, 11,100 events)',
      () => admin.post('/api/admin/events/search', { query: 'flag-43' }),
    ],
    [
      'POST events/search {query} (punctuated, 100 events)',
      () => admin.post('/api/admin/events/search', { query: '"flag-4321"' }),
    ],
    ['GET search/events?type=IS:', () => admin.get('/api/admin/search/events?type=IS:feature-archived')],
    [
      'GET search/events?createdBy&from&to',
      () => admin.get(`/api/admin/search/events?createdBy=IS:1042&from=${day(-30)}&to=${day(0)}`),
    ],
    [
      'GET search/events?project&offset=5000',
      () => admin.get('/api/admin/search/events?project=IS:project-7&offset=5000&limit=50'),
    ],
  ];
  const rows: Record<string, unknown>[] = [];
  for (const [read, send] of reads) {
    const samples: number[] = [];
    for (let round = 0; round < READS; round += 1) {
      const started = performance.now();
      const reply = await send();
      if (reply.status !== 200) throw new Error(`${read}: ${reply.status}`);
      samples.push(performance.now() - started);
    }
    const summary = summarize(samples);
    // The first read of each kind meets a cold cache (a million rows were just written through 128 MB of shared buffers).
    rows.push({
      read,
      'first ms': round(samples[0]!),
      'p50 ms': round(summary.p50),
      'p99 ms': round(summary.p99),
      'max ms': round(summary.max),
      'goal (p99 <100 ms)': summary.p99 < 100 ? 'met' : 'not met',
    });
  }
  return { seedSeconds, rows };
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
