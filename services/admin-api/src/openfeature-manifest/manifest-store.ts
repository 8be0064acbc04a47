import { z } from 'zod';
import { sql, type Queryable } from '@bunting/platform';
import type { WriteTx } from '../events/write-tx.ts';

export const ManifestRow = z.object({
  name: z.string(),
  project: z.string(),
  description: z.string().nullable(),
  createdAt: z.string(),
  archivedAt: z.string().nullable(),
  flagType: z.string().nullable(),
  defaultValue: z.unknown(),
  displayName: z.string().nullable(),
  updatedAt: z.string().nullable(),
  /** The payload types of the flag's variants (environment variants first, then strategies'), in order. */
  payloadTypes: z.array(z.string()).nullable(),
  firstPayload: z.string().nullable(),
});
export type ManifestRow = z.infer<typeof ManifestRow>;

// Reads the flag tables of other slices (never writes them): a flag's variants decide its derived type.
const select = sql.fragment`select f.name, f.project_id as project, f.description,
    to_char(f.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "createdAt",
    to_char(f.archived_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "archivedAt",
    m.flag_type as "flagType", m.default_value as "defaultValue", m.display_name as "displayName",
    to_char(m.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "updatedAt",
    p.types as "payloadTypes", p.first_value as "firstPayload"
  from admin.features f
  left join admin.manifest_flags m on m.feature_name = f.name
  left join lateral (
    select array_agg(v.item -> 'payload' ->> 'type' order by v.source, v.owner, v.ord) as types,
      (array_agg(v.item -> 'payload' ->> 'value' order by v.source, v.owner, v.ord))[1] as first_value
    from (
      select 0 as source, e.environment as owner, x.ord, x.item
        from admin.feature_environments e, jsonb_array_elements(e.variants) with ordinality x(item, ord)
        where e.feature_name = f.name
      union all
      select 1, s.id, x.ord, x.item
        from admin.feature_strategies s, jsonb_array_elements(s.variants) with ordinality x(item, ord)
        where s.feature_name = f.name
    ) v
    where jsonb_typeof(v.item -> 'payload') = 'object'
  ) p on true`;

export const manifestStore = {
  /** Active flags, in the projects given (all when null). */
  list(db: Queryable, projects: readonly string[] | null) {
    const scope =
      projects === null ? sql.fragment`true` : sql.fragment`f.project_id = any(${sql.array(projects, 'text')})`;
    return db.any(sql.type(ManifestRow)`${select} where f.archived_at is null and ${scope} order by f.name`);
  },
  get(db: Queryable, name: string) {
    return db.maybeOne(sql.type(ManifestRow)`${select} where f.name = ${name}`);
  },
  upsert(db: WriteTx, row: { name: string; flagType: string; defaultValue: unknown; displayName: string | null }) {
    return db.query(sql.unsafe`insert into admin.manifest_flags (feature_name, flag_type, default_value, display_name)
      values (${row.name}, ${row.flagType}, ${sql.jsonb(row.defaultValue as never)}, ${row.displayName})
      on conflict (feature_name) do update set flag_type = excluded.flag_type, default_value = excluded.default_value,
        display_name = excluded.display_name, updated_at = now()`);
  },
};
