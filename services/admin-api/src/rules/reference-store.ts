import { z } from 'zod';
import { sql, type Queryable } from '@bunting/platform';

const LegalValuesRow = z.object({
  name: z.string(),
  legalValues: z.array(z.object({ value: z.string() }).passthrough()),
});

/** What strategy and constraint rules check input against: strategy definitions, segments, context fields. */
export const referenceStore = {
  strategyExists(db: Queryable, name: string) {
    return db.exists(sql.unsafe`select 1 from admin.strategies where name = ${name}`);
  },
  existingSegments(db: Queryable, ids: readonly number[]) {
    return db.anyFirst(
      sql.type(z.object({ id: z.number() }))`select id from admin.segments where id = any(${sql.array(ids, 'int4')})`,
    );
  },
  /** The context fields among `names` that restrict their values. */
  legalValues(db: Queryable, names: readonly string[]) {
    return db.any(sql.type(LegalValuesRow)`
      select name, legal_values as "legalValues" from admin.context_fields
      where name = any(${sql.array(names, 'text')}) and jsonb_array_length(legal_values) > 0`);
  },
};
