import { FeatureTypeInfo as FeatureTypeRow } from '@bunting/contracts';
import type { WriteTx } from '../events/write-tx.ts';
import { sql, type Queryable } from '@bunting/platform';

const columns = sql.fragment`id, name, description, lifetime_days as "lifetimeDays"`;

/** Flag types (release, experiment, ...) and how long a flag of each is expected to live. */
export const featureTypeStore = {
  list: (db: Queryable) => db.any(sql.type(FeatureTypeRow)`select ${columns} from admin.feature_types order by id`),
  get: (db: Queryable, id: string) =>
    db.maybeOne(sql.type(FeatureTypeRow)`select ${columns} from admin.feature_types where id = ${id}`),
  setLifetime: (db: WriteTx, id: string, lifetimeDays: number | null) =>
    db.query(sql.unsafe`update admin.feature_types set lifetime_days = ${lifetimeDays} where id = ${id}`),
};
