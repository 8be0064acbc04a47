import { z } from 'zod';
import { DomainEvent, type Event } from '@bunting/contracts';
import { sql, type Queryable } from '@bunting/platform';
import { freeText, type FreeText } from './free-text-store.ts';

// A stored event: the stream's event with its log id; the type is read as stored, whatever the list was then.
const EventRow = DomainEvent.omit({ uuid: true, groupId: true }).extend({ id: z.number(), type: z.string() });

const columns = sql.fragment`id, type, created_at as "createdAt", created_by as "createdBy",
  created_by_user_id as "createdByUserId", environment, project, feature_name as "featureName",
  data, pre_data as "preData", tags, created_via as "createdVia"`;

/** Each list matches any of its values; all given filters must hold. */
export type EventFilter = {
  id?: readonly number[] | undefined;
  groupId?: readonly string[] | undefined;
  project?: readonly string[] | undefined;
  feature?: readonly string[] | undefined;
  type?: readonly string[] | undefined;
  environment?: readonly string[] | undefined;
  /** A creator's user id (Unleash's search sends those) or name. */
  createdBy?: readonly string[] | undefined;
  query?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
};

const anyOf = (values: readonly string[]) => sql.array([...values], 'text');

function where(filter: EventFilter, text: FreeText | null) {
  const conditions = [];
  if (filter.id !== undefined) conditions.push(sql.fragment`id = any(${sql.array([...filter.id], 'int8')})`);
  if (filter.groupId !== undefined) conditions.push(sql.fragment`group_id::text = any(${anyOf(filter.groupId)})`);
  if (filter.project !== undefined) conditions.push(sql.fragment`project = any(${anyOf(filter.project)})`);
  if (filter.feature !== undefined) conditions.push(sql.fragment`feature_name = any(${anyOf(filter.feature)})`);
  // Release management's events carry Unleash's name for them beside the spec's type: either name finds them.
  if (filter.type !== undefined)
    conditions.push(
      sql.fragment`(type = any(${anyOf(filter.type)}) or data ->> 'unleashEventType' = any(${anyOf(filter.type)}))`,
    );
  if (filter.environment !== undefined) conditions.push(sql.fragment`environment = any(${anyOf(filter.environment)})`);
  if (filter.createdBy !== undefined) {
    // Compared as stored, so each side reads its own index.
    const userIds = filter.createdBy.filter((value) => /^-?\d{1,9}$/.test(value)).map(Number);
    conditions.push(
      sql.fragment`(created_by = any(${anyOf(filter.createdBy)}) or created_by_user_id = any(${sql.array(userIds, 'int4')}))`,
    );
  }
  if (filter.from !== undefined) conditions.push(sql.fragment`created_at >= ${filter.from}::timestamptz`);
  if (filter.to !== undefined) conditions.push(sql.fragment`created_at <= ${filter.to}::timestamptz`);
  if (text !== null && !text.none) conditions.push(sql.fragment`id in (${text.ids})`);
  return conditions.length > 0 ? sql.fragment`where ${sql.join(conditions, sql.fragment` and `)}` : null;
}

const onlyText = (filter: EventFilter) =>
  Object.entries(filter).every(([name, value]) => name === 'query' || value === undefined);

const Position = z.object({ lastSequence: z.coerce.number() });

/**
 * One statement, so a run costs one round trip: the position row is locked (a replica storing the same run waits,
 * then reads the position the other left), events after it are inserted in stream order (each row's id is taken as
 * it is inserted) with their free text and the kept count, and the position moves to the run's end.
 */
function storeRunStatement(run: readonly { sequence: number; value: DomainEvent }[], upTo: number) {
  const rows = run.map(
    ({
      sequence,
      value: event,
    }) => sql.fragment`(${sequence}::bigint, ${event.uuid}::uuid, ${event.type}, ${event.createdAt}::timestamptz,
    ${event.createdBy}, ${event.createdByUserId}::integer, ${event.environment}::text, ${event.project}::text, ${event.featureName}::text,
    ${event.data === null ? null : sql.jsonb(event.data as object)}::jsonb, ${event.preData === null ? null : sql.jsonb(event.preData as object)}::jsonb,
    ${sql.jsonb(event.tags ?? [])}::jsonb, ${event.groupId ?? null}::text, ${event.createdVia ?? null}::text)`,
  );
  const Added = z.object({ added: z.number() });
  return sql.type(Added)`
    with position as (
      select last_sequence from event_log.stream_position for update
    ),
    stored as (
      insert into event_log.events (uuid, type, created_at, created_by, created_by_user_id, environment, project,
        feature_name, data, pre_data, tags, group_id, created_via)
      select uuid, type, created_at, created_by, created_by_user_id, environment, project, feature_name, data, pre_data, tags, group_id, created_via
      from (values ${sql.join(rows, sql.fragment`, `)}) as run (sequence, uuid, type, created_at, created_by, created_by_user_id,
        environment, project, feature_name, data, pre_data, tags, group_id, created_via)
      where sequence > (select last_sequence from position)
      order by sequence
      on conflict (uuid) do nothing
      returning id, type, created_by, data
    ),
    texts as (
      select id, event_log.text_of(type, created_by, data) as body from stored
    ),
    searched as (
      insert into event_log.event_text (id, body) select id, body from texts
    ),
    words as (
      select id, hashtextextended(word, 0) as hash, word from texts, event_log.text_words(body) as word
    ),
    indexed as (
      insert into event_log.event_word_ids (hash, id) select hash, id from words
    ),
    listed as (
      insert into event_log.event_words (hash, word) select distinct on (hash) hash, word from words on conflict (hash) do nothing
    ),
    counted as (
      update event_log.event_count set total = total + (select count(*) from stored)
    ),
    moved as (
      update event_log.stream_position set last_sequence = greatest(last_sequence, ${upTo}::bigint)
    )
    select count(*)::int as added from stored`;
}

const FEW_MATCHES = 5_000;
/**
 * Up to FEW_MATCHES matches are read through the filters' indexes and sorted (id + 0 keeps the planner off the
 * primary key, which it would walk backwards hoping to meet matches early, through the whole table if they are
 * rare); many are met soon walking the log backwards.
 */
const newestFirst = (total: number) => (total <= FEW_MATCHES ? sql.fragment`id + 0 desc` : sql.fragment`id desc`);
// createdVia is answered only where a change came through an agent, so other events keep Unleash's shape.
const typed = (rows: readonly z.infer<typeof EventRow>[]): Event[] =>
  rows.map(({ createdVia, ...row }) => ({
    ...row,
    type: row.type as Event['type'],
    ...(createdVia ? { createdVia } : {}),
  }));

export const eventStore = {
  /**
   * Stores a run of the stream's events after those already stored, in one transaction with the stream position it
   * reaches: events at or before the stored position (another replica stored them) are left out, and an event whose
   * uuid is taken (published again) changes nothing. Ids follow the run's order, which is the stream's.
   */
  async storeRun(
    db: Queryable,
    run: readonly { sequence: number; value: DomainEvent }[],
    upTo: number,
  ): Promise<number> {
    if (run.length === 0) {
      await db.query(
        sql.unsafe`update event_log.stream_position set last_sequence = greatest(last_sequence, ${upTo}::bigint)`,
      );
      return 0;
    }
    return db.oneFirst(storeRunStatement(run, upTo));
  },

  /** The last stream sequence the log holds. */
  storedUpTo: (db: Queryable) =>
    db.oneFirst(sql.type(Position)`select last_sequence as "lastSequence" from event_log.stream_position`),

  /**
   * The position in the stream created at `created`. A position kept in another stream (NATS rebuilt, as after a
   * restore of the database) starts again from 0: the new stream's first messages are new events, and any the log
   * already holds are known by uuid. A position that names no stream yet (kept by an older version) is this one's.
   */
  positionIn: (db: Queryable, created: string) =>
    db.oneFirst(sql.type(Position)`
    update event_log.stream_position
    set last_sequence = case when stream_created is distinct from ${created} and stream_created is not null then 0 else last_sequence end,
      stream_created = ${created}
    returning last_sequence as "lastSequence"`),

  /** When an event was made, by its id or uuid; null when the log has no such event. */
  async createdAtOf(db: Queryable, event: { id: number } | { uuid: string }): Promise<string | null> {
    const condition = 'id' in event ? sql.fragment`id = ${event.id}` : sql.fragment`uuid = ${event.uuid}::uuid`;
    const at = await db.maybeOneFirst(sql.unsafe`
      select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') from event_log.events where ${condition}`);
    return (at as string | null) ?? null;
  },

  async find(
    db: Queryable,
    filter: EventFilter,
    page: { limit: number | null; offset: number },
  ): Promise<{ events: Event[]; total: number }> {
    const limit = page.limit === null ? sql.fragment`` : sql.fragment`limit ${page.limit}`;
    const Count = z.object({ count: z.number() });
    const text = filter.query ? await freeText(db, filter.query) : null;
    if (text?.none) return { events: [], total: 0 };
    if (text !== null && onlyText(filter)) {
      // Free text alone is counted and paged where it is matched; only the page's events are read.
      const total = await db.oneFirst(sql.type(Count)`select count(*)::int as count from (${text.ids}) as matched`);
      if (total === 0) return { events: [], total };
      const rows = await db.any(sql.type(EventRow)`
        select ${columns} from event_log.events where id in (
          select id from (${text.ids}) as matched order by ${newestFirst(total)} ${limit} offset ${page.offset})
        order by id desc`);
      return { events: typed(rows), total };
    }
    const condition = where(filter, text);
    if (condition === null) {
      const [rows, total] = await Promise.all([
        db.any(
          sql.type(EventRow)`select ${columns} from event_log.events order by id desc ${limit} offset ${page.offset}`,
        ),
        db.oneFirst(sql.type(Count)`select total::int as count from event_log.event_count`),
      ]);
      return { events: typed(rows), total };
    }
    const total = await db.oneFirst(sql.type(Count)`select count(*)::int as count from event_log.events ${condition}`);
    // The page's ids first, then only those events: rows skipped by the offset are then read from the filter's
    // index alone (project, type, creator each index their id), not fetched whole and thrown away.
    const rows =
      total === 0
        ? []
        : await db.any(sql.type(EventRow)`select ${columns} from event_log.events where id in (
      select id from event_log.events ${condition} order by ${newestFirst(total)} ${limit} offset ${page.offset})
      order by id desc`);
    return { events: typed(rows), total };
  },

  creators(db: Queryable) {
    return db.any(sql.type(z.object({ id: z.number().nullable(), name: z.string() }))`
      select distinct on (created_by) created_by_user_id as id, created_by as name from event_log.events order by created_by, id desc`);
  },
};
