import { sql, type Queryable } from '@bunting/platform';
import { z } from 'zod';

const Exposures = z.object({ yes: z.number(), no: z.number() });

/**
 * A flag's evaluations in an environment (yes: on, no: off) as SDKs reported them, since the UTC day of `since`:
 * from the day, so hours rolled up into their day's row are still counted.
 */
export async function metricExposures(db: Queryable, featureName: string, environment: string, since: string) {
  return db.one(sql.type(Exposures)`
    select coalesce(sum(yes), 0)::float8 as yes, coalesce(sum(no), 0)::float8 as no from insights.metric_hours
    where feature_name = ${featureName} and environment = ${environment}
      and hour >= date_trunc('day', ${since}::timestamptz, 'UTC')`);
}
