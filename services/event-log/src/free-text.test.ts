import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { DomainEvent, EventType } from '@bunting/contracts';
import { connectDatabase, createLogger, migrate, sql, type DatabasePool } from '@bunting/platform';
import { isolate, type Isolation } from '@bunting/testing';
import { eventStore } from './event-store.ts';

// Free text is matched two ways (the word index, the text table's trigrams); each answer here is compared with the
// plain definition: the query anywhere in the event's lower-cased type, creator and payload.
const log = createLogger('silent', 'free-text-test');
const migrations = fileURLToPath(new URL('../migrations', import.meta.url));
let isolation: Isolation;
let db: DatabasePool;
let earlier: string;

function event(type: EventType, createdBy: string, project: string, data: Record<string, unknown> | null): DomainEvent {
  return {
    uuid: randomUUID(),
    type,
    createdAt: new Date().toISOString(),
    createdBy,
    createdByUserId: null,
    environment: null,
    project,
    featureName: null,
    data,
    preData: null,
    tags: [],
  };
}

const LONG = `word${'x'.repeat(5_000)}end`;
const events: DomainEvent[] = [
  event('feature-created', 'Ada Lovelace', 'alpha', {
    name: 'checkout-v2',
    description: 'Needle, in a "haystack": here',
  }),
  event('feature-updated', 'ada@example.com', 'alpha', {
    name: 'checkout-v2',
    description: 'Prozent 100% und_unterstrich',
  }),
  event('feature-strategy-add', 'system', 'beta', {
    name: 'flexibleRollout',
    parameters: { rollout: '50', groupId: 'Ünïcödé-Grüppe' },
  }),
  event('feature-tagged', 'system', 'beta', { type: 'simple', value: 'back\\slash and tab\there' }),
  event('segment-updated', 'bob', 'beta', {
    constraints: [{ contextName: 'userId', values: ['u-1', 'u-22', 'u-333'] }],
  }),
  event('feature-archived', 'bob', 'alpha', { long: LONG, nested: { deep: [[1, 2], { key: 'a:b,c' }] } }),
  event('project-created', 'carol', 'gamma', null),
];
// Past a thousand words holding a query, the text table answers it instead.
const many = Array.from({ length: 1_050 }, (_, index) =>
  event('feature-created', 'fleet', 'many', { name: `manyword-${index}` }),
);

/** Stores events as the log did before its word index (migration 005), so the migration fills that in. */
async function storeBeforeWords(stored: readonly DomainEvent[]) {
  for (const each of stored) {
    await db.query(sql.unsafe`with stored as (
      insert into event_log.events (uuid, type, created_at, created_by, created_by_user_id, environment, project, feature_name, data, pre_data, tags)
      values (${each.uuid}, ${each.type}, ${each.createdAt}, ${each.createdBy}, null, null, ${each.project}, null,
        ${each.data === null ? null : sql.jsonb(each.data as object)}, null, '[]') returning id, type, created_by, data)
    insert into event_log.event_text (id, body) select id, lower(type || ' ' || created_by || ' ' || coalesce(data::text, '')) from stored`);
  }
}

beforeAll(async () => {
  isolation = await isolate();
  db = await connectDatabase(isolation.databaseUrl);
  earlier = await mkdtemp(join(tmpdir(), 'event-log-migrations-'));
  for (const file of (await readdir(migrations)).filter((name) => name < '005'))
    await cp(join(migrations, file), join(earlier, file));
  await migrate({ databaseUrl: isolation.databaseUrl, schema: 'event_log', dir: earlier, log });
  await storeBeforeWords(events.slice(0, 3));
  await migrate({ databaseUrl: isolation.databaseUrl, schema: 'event_log', dir: migrations, log });
  const rest = [...events.slice(3), ...many];
  for (let start = 0; start < rest.length; start += 200) {
    await eventStore.storeRun(
      db,
      rest.slice(start, start + 200).map((value, index) => ({ sequence: start + index + 1, value })),
      start + 200,
    );
  }
}, 60_000);

afterAll(async () => {
  await db?.end();
  await isolation?.cleanup();
  if (earlier) await rm(earlier, { recursive: true, force: true });
});

const Ids = z.object({ id: z.number() });
/** The definition: the query anywhere in the text, ignoring case; newest first. */
const expected = (query: string, project?: string) =>
  db.anyFirst(sql.type(Ids)`
  select id from event_log.events
  where strpos(lower(type || ' ' || created_by || ' ' || coalesce(data::text, '')), lower(${query})) > 0
    ${project === undefined ? sql.fragment`` : sql.fragment`and project = ${project}`}
  order by id desc`);

async function expectSame(query: string, project?: string) {
  const want = await expected(query, project);
  const found = await eventStore.find(
    db,
    { query, project: project === undefined ? undefined : [project] },
    { limit: null, offset: 0 },
  );
  expect({ query, project, total: found.total, ids: found.events.map((each) => each.id) }).toEqual({
    query,
    project,
    total: want.length,
    ids: want,
  });
  return want.length;
}

/** A seeded generator, so a failure names a query that can be run again. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('free text', () => {
  it('matches inside one word, across words, with punctuation, escapes and other scripts', async () => {
    const queries = [
      'needle',
      'NEEDLE',
      'eedl',
      'checkout-v2',
      'ada',
      'example.com',
      '@',
      'u-22',
      'u-3',
      'rollout',
      '50',
      'ünïcödé',
      'grüppe',
      '100%',
      '%',
      '_',
      'und_u',
      'back\\\\slash',
      '\\\\',
      'tab\\t',
      'needle, in',
      '"haystack"',
      'haystack":',
      ': here',
      'a:b,c',
      'b,c',
      ',',
      '[1',
      '{',
      ' ',
      'ada lovelace',
      'xxxxxxxxxxend',
      LONG,
      `${LONG}"`,
      'project-created carol',
      'carol',
      'needle, in a "hay',
      '"u-22", "u-3',
      'manyword-7"}',
      '{"name": "manyword',
      '"zzz"',
      'manyword-1',
      'manyword-104',
      'manyword-1049',
      'manyword',
      'anyword-10',
      'fleet',
      'nothing like it',
      'zz',
    ];
    const totals = [];
    for (const query of queries) totals.push(await expectSame(query));
    // Each path is taken: none, one word, several words, many words (the text table), and punctuation.
    expect(totals[queries.indexOf('nothing like it')]).toBe(0);
    expect(totals[queries.indexOf('manyword')]).toBe(1_050);
    expect(totals[queries.indexOf('manyword-104')]).toBe(1 + 10);
    expect(totals[queries.indexOf('needle, in')]).toBe(1);
  });

  it('matches what a random piece of any event says, in any case', async () => {
    const texts = await db.anyFirst(sql.type(z.object({ body: z.string() }))`
      select type || ' ' || created_by || ' ' || coalesce(data::text, '') as body from event_log.events where project <> 'many'`);
    const next = random(18);
    for (let round = 0; round < 150; round += 1) {
      const text = texts[Math.floor(next() * texts.length)]!;
      const start = Math.floor(next() * text.length);
      const piece = text.slice(start, start + 1 + Math.floor(next() * 12));
      await expectSame(next() < 0.3 ? piece.toUpperCase() : piece);
    }
  });

  it('combines with other filters and pages like the rest of the log', async () => {
    await expectSame('checkout', 'alpha');
    await expectSame('checkout', 'beta');
    await expectSame('manyword-10', 'many');
    const want = await expected('manyword-1');
    const page = await eventStore.find(db, { query: 'manyword-1' }, { limit: 5, offset: 7 });
    expect(page).toMatchObject({ total: want.length, events: want.slice(7, 12).map((id) => ({ id })) });
    const past = await eventStore.find(db, { query: 'manyword-1' }, { limit: 5, offset: want.length });
    expect(past).toEqual({ total: want.length, events: [] });
  });
});
