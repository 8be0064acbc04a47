import { z } from 'zod';
import { ImpactChartInput } from '@bunting/contracts';
import { sql, type Queryable } from '@bunting/platform';

const StoredChart = ImpactChartInput.required({ id: true });
export type StoredChart = z.infer<typeof StoredChart>;
const ChartRow = z.object({ config: StoredChart });

/** The charts of impact metrics each flag's page shows. */
export const impactChartStore = {
  async ofFeature(db: Queryable, project: string, feature: string): Promise<StoredChart[]> {
    const rows = await db.any(sql.type(ChartRow)`
      select config from insights.impact_charts where project = ${project} and feature = ${feature} order by created_at, id`);
    return rows.map((row) => row.config);
  },

  async get(db: Queryable, project: string, feature: string, id: string): Promise<StoredChart | null> {
    return (
      (
        await db.maybeOne(sql.type(ChartRow)`
      select config from insights.impact_charts where project = ${project} and feature = ${feature} and id = ${id}`)
      )?.config ?? null
    );
  },

  async count(db: Queryable, project: string, feature: string): Promise<number> {
    return db.oneFirst(sql.type(z.object({ count: z.number() }))`
      select count(*)::int4 as count from insights.impact_charts where project = ${project} and feature = ${feature}`);
  },

  /** Adds the chart, or replaces it when the flag already has one with its id. */
  async save(db: Queryable, project: string, feature: string, chart: StoredChart) {
    await db.query(sql.unsafe`
      insert into insights.impact_charts (id, project, feature, config) values (${chart.id}, ${project}, ${feature}, ${sql.jsonb(chart as never)})
      on conflict (id) do update set config = excluded.config`);
  },

  async delete(db: Queryable, project: string, feature: string, id: string): Promise<boolean> {
    return (
      (
        await db.query(
          sql.unsafe`delete from insights.impact_charts where project = ${project} and feature = ${feature} and id = ${id}`,
        )
      ).rowCount > 0
    );
  },
};
