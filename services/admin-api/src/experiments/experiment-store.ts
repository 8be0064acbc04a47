import { Experiment, ExperimentMetric } from '@bunting/contracts';
import { sql, type Queryable } from '@bunting/platform';
import { z } from 'zod';
import type { WriteTx } from '../events/write-tx.ts';

const time = (column: string) =>
  sql.fragment`to_char(${sql.identifier(column.split('.'))} at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const ExperimentRow = Experiment.extend({ metrics: z.array(ExperimentMetric) });
const columns = sql.fragment`x.id, f.project_id as project, x.feature_name as "featureName", x.environment, x.name,
  x.hypothesis, x.control_variant as "controlVariant", x.metrics, x.method, x.alpha, x.correction,
  x.minimum_sample as "minimumSample", case when x.stopped_at is null then 'running' else 'stopped' end as status,
  ${time('x.started_at')} as "startedAt", ${time('x.stopped_at')} as "stoppedAt", x.decision`;

/** Experiments on flags' variants: their settings and decisions. */
export const experimentStore = {
  ofFeature(db: Queryable, featureName: string) {
    return db.any(sql.type(ExperimentRow)`select ${columns} from admin.experiments x
      join admin.features f on f.name = x.feature_name where x.feature_name = ${featureName}
      order by x.started_at desc, x.id`);
  },
  get(db: Queryable, featureName: string, id: string, options: { forUpdate?: boolean } = {}) {
    return db.maybeOne(sql.type(ExperimentRow)`select ${columns} from admin.experiments x
      join admin.features f on f.name = x.feature_name where x.feature_name = ${featureName} and x.id = ${id}
      ${options.forUpdate ? sql.fragment`for update of x` : sql.fragment``}`);
  },
  runningIn(db: Queryable, featureName: string, environment: string) {
    return db.maybeOneFirst(sql.type(z.object({ id: z.string() }))`select id from admin.experiments
      where feature_name = ${featureName} and environment = ${environment} and stopped_at is null`);
  },
  async insert(db: WriteTx, row: Omit<Experiment, 'project' | 'status' | 'startedAt' | 'stoppedAt' | 'decision'>) {
    await db.query(sql.unsafe`insert into admin.experiments (id, feature_name, environment, name, hypothesis,
        control_variant, metrics, method, alpha, correction, minimum_sample)
      values (${row.id}, ${row.featureName}, ${row.environment}, ${row.name}, ${row.hypothesis}, ${row.controlVariant},
        ${sql.jsonb(row.metrics)}, ${row.method}, ${row.alpha}, ${row.correction}, ${row.minimumSample})`);
  },
  async stop(db: WriteTx, id: string, decision: NonNullable<Experiment['decision']>) {
    await db.query(sql.unsafe`update admin.experiments set stopped_at = now(), decision = ${sql.jsonb(decision)}
      where id = ${id}`);
  },
};
