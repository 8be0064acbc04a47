import { z } from 'zod';
import { sql, type Queryable } from '@bunting/platform';

const Stage = z.object({
  stage: z.string(),
  status: z.string().nullable(),
  statusValue: z.string().nullable(),
  enteredStageAt: z.string(),
});

/** Each flag's lifecycle history (admin.feature_lifecycle_stages) and what decides its stage. */
export const lifecycleStore = {
  /** The types of the environments a flag is enabled in. */
  enabledEnvironmentTypes(db: Queryable, name: string) {
    return db.anyFirst(sql.type(z.object({ type: z.string() }))`
      select e.type from admin.feature_environments fe join admin.environments e on e.name = fe.environment
      where fe.feature_name = ${name} and fe.enabled`);
  },
  history(db: Queryable, name: string) {
    return db.any(sql.type(Stage)`
      select stage, status, status_value as "statusValue", entered_at as "enteredStageAt"
      from admin.feature_lifecycle_stages where feature_name = ${name} order by entered_at, stage`);
  },
  countByStage(db: Queryable) {
    return db.any(sql.type(z.object({ stage: z.string(), count: z.number() }))`
      select lifecycle_stage as stage, count(*)::int as count from admin.features group by lifecycle_stage`);
  },
};
