import { z } from 'zod';
import type { WriteTx } from '../events/write-tx.ts';
import { sql, type Queryable } from '@bunting/platform';

const ExposureRow = z.object({ featureName: z.string(), environment: z.string(), yes: z.number(), no: z.number() });

/** When SDKs last reported each flag per environment (Feature.lastSeenAt), and how often it was on or off. */
export const lastSeenStore = {
  /** Whether this metrics message is new (false: it was counted before and is being redelivered). */
  async claimMessage(db: WriteTx, streamSequence: number): Promise<boolean> {
    return (
      (
        await db.query(
          sql.unsafe`insert into admin.processed_metrics (stream_sequence) values (${streamSequence}) on conflict do nothing`,
        )
      ).rowCount > 0
    );
  },
  /** The names among these that are flags of the given projects. */
  async ofProjects(db: Queryable, names: readonly string[], projects: ReadonlySet<string>): Promise<Set<string>> {
    return new Set(
      await db.anyFirst(sql.type(z.object({ name: z.string() }))`
        select name from admin.features
        where name = any(${sql.array([...names], 'text')}) and project_id = any(${sql.array([...projects], 'text')})`),
    );
  },
  /** Adds yes/no counts to the hour `at` falls in; unknown flags are skipped. */
  addExposures(db: WriteTx, environment: string, at: string, counts: ReadonlyMap<string, { yes: number; no: number }>) {
    const names = [...counts.keys()];
    return db.query(sql.unsafe`
      insert into admin.feature_exposures (feature_name, environment, hour, yes, no)
      select f.name, ${environment}, date_trunc('hour', ${at}::timestamptz), c.yes, c.no
      from unnest(${sql.array(names, 'text')}::text[], ${sql.array(
        names.map((name) => counts.get(name)!.yes),
        'int8',
      )}::int8[],
        ${sql.array(
          names.map((name) => counts.get(name)!.no),
          'int8',
        )}::int8[]) as c(name, yes, no)
      join admin.features f on f.name = c.name
      on conflict (feature_name, environment, hour) do update
        set yes = admin.feature_exposures.yes + excluded.yes, no = admin.feature_exposures.no + excluded.no`);
  },
  /** The yes/no counts of the last hour (the current hour's bucket and the one before), per flag and environment. */
  lastHour(db: Queryable, featureNames: readonly string[]) {
    return db.any(sql.type(ExposureRow)`
      select feature_name as "featureName", environment, sum(yes)::int8 as yes, sum(no)::int8 as no
      from admin.feature_exposures
      where feature_name = any(${sql.array(featureNames, 'text')}) and hour >= date_trunc('hour', now()) - interval '1 hour'
      group by feature_name, environment`);
  },
};
