import { z } from 'zod';
import { sql, type Queryable } from '@bunting/platform';
import type { CodeReference, CodeReferenceExtinction } from '@bunting/contracts';
import type { WriteTx } from '../events/write-tx.ts';

const stamp = (column: string) =>
  sql.fragment`to_char(${sql.identifier([column])} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export const ReferenceRow = z.object({
  repository: z.string(),
  branch: z.string(),
  flag: z.string(),
  path: z.string(),
  line: z.number(),
  context: z.array(z.string()),
  commit: z.string(),
  recordedAt: z.string(),
});
export const ExtinctionRow = z.object({
  repository: z.string(),
  branch: z.string(),
  flag: z.string(),
  commit: z.string(),
  author: z.string().nullable(),
  removedAt: z.string(),
});

export const codeReferenceStore = {
  /** Replaces one branch's references with a scan's. */
  async replaceBranch(
    db: WriteTx,
    scan: { repository: string; branch: string; commit: string; references: readonly CodeReference[] },
  ) {
    await db.query(
      sql.unsafe`delete from admin.code_references where repository = ${scan.repository} and branch = ${scan.branch}`,
    );
    if (scan.references.length === 0) return;
    await db.query(sql.unsafe`insert into admin.code_references (repository, branch, feature_name, path, line, context, commit)
      select ${scan.repository}, ${scan.branch}, r.flag, r.path, r.line, r.context, ${scan.commit}
      from jsonb_to_recordset(${sql.jsonb(scan.references as never)}) as r(flag text, path text, line integer, context jsonb)
      on conflict do nothing`);
  },
  async recordExtinctions(
    db: WriteTx,
    repository: string,
    branch: string,
    extinctions: readonly CodeReferenceExtinction[],
  ) {
    if (extinctions.length === 0) return;
    await db.query(sql.unsafe`insert into admin.code_reference_extinctions (repository, branch, feature_name, commit, author, removed_at)
      select ${repository}, ${branch}, e.flag, e.commit, e.author, e."removedAt"
      from jsonb_to_recordset(${sql.jsonb(extinctions as never)}) as e(flag text, commit text, author text, "removedAt" timestamptz)
      on conflict (repository, branch, feature_name) do update set commit = excluded.commit, author = excluded.author,
        removed_at = excluded.removed_at`);
  },
  /** A flag referenced again is no longer extinct in that branch. */
  async clearExtinctions(db: WriteTx, repository: string, branch: string, flags: readonly string[]) {
    await db.query(sql.unsafe`delete from admin.code_reference_extinctions where repository = ${repository}
      and branch = ${branch} and feature_name = any(${sql.array(flags, 'text')})`);
  },
  flagsOf(db: Queryable, repository: string, branch: string) {
    return db.anyFirst(sql.type(z.object({ flag: z.string() }))`select distinct feature_name as flag
      from admin.code_references where repository = ${repository} and branch = ${branch} order by 1`);
  },
  forFlag(db: Queryable, flag: string) {
    return db.any(sql.type(ReferenceRow)`select repository, branch, feature_name as flag, path, line, context, commit,
      ${stamp('recorded_at')} as "recordedAt" from admin.code_references where feature_name = ${flag}
      order by repository, branch, path, line`);
  },
  extinctionsOf(db: Queryable, flag: string) {
    return db.any(sql.type(ExtinctionRow)`select repository, branch, feature_name as flag, commit, author,
      ${stamp('removed_at')} as "removedAt" from admin.code_reference_extinctions where feature_name = ${flag}
      order by removed_at desc`);
  },
};

export const CandidateRow = z.object({
  name: z.string(),
  project: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string().nullable(),
  lifecycleStage: z.string(),
  lifecycleStatus: z.string().nullable(),
  stale: z.boolean(),
  potentiallyStale: z.boolean(),
  safe: z.boolean(),
});

// Reads the flags' own tables (feature-state's) beside its own. A flag looks safe to remove when no scan found it in
// code, no SDK evaluated it for `days` (or ever, when older than that), and its work is completed or it is stale.
const candidates = (days: number, project: string | null) => sql.fragment`
  select f.name, f.project_id as project, ${stamp('created_at')} as "createdAt",
    to_char(seen.last at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "lastSeenAt",
    f.lifecycle_stage as "lifecycleStage", stage.status as "lifecycleStatus", f.stale,
    f.potentially_stale as "potentiallyStale",
    (coalesce(seen.last, f.created_at) <= now() - make_interval(days => ${days})
      and (f.lifecycle_stage = 'completed' or f.stale or f.potentially_stale)
      and not exists (select 1 from admin.code_references r where r.feature_name = f.name)) as safe
  from admin.features f
  left join lateral (select max(e.last_seen_at) as last from admin.feature_environments e where e.feature_name = f.name) seen on true
  left join lateral (select l.status from admin.feature_lifecycle_stages l where l.feature_name = f.name
    order by l.entered_at desc limit 1) stage on true
  where f.archived_at is null and (${project}::text is null or f.project_id = ${project})`;

export const cleanupStore = {
  candidates(db: Queryable, days: number, project: string | null) {
    return db.any(sql.type(CandidateRow)`select * from (${candidates(days, project)}) c where c.safe
      order by coalesce(c."lastSeenAt", c."createdAt"), c.name limit 1000`);
  },
  /**
   * The flags due a reminder (safe to remove, or stale), claimed for this period: a flag already reminded within it
   * is not returned, and two replicas claiming at once get each flag once (the row is the claim).
   */
  claimDue(db: WriteTx, days: number, periodDays: number) {
    return db.any(sql.type(CandidateRow)`
      with due as (select * from (${candidates(days, null)}) c where c.safe or c.stale or c."potentiallyStale"),
      claimed as (
        insert into admin.cleanup_notices (feature_name, noticed_at) select name, now() from due
        on conflict (feature_name) do update set noticed_at = excluded.noticed_at
          where admin.cleanup_notices.noticed_at < now() - make_interval(days => ${periodDays})
        returning feature_name
      )
      select due.* from due join claimed on claimed.feature_name = due.name order by due.project, due.name`);
  },
  scannedBranches(db: Queryable) {
    return db.oneFirst(
      sql.type(
        z.object({ count: z.number() }),
      )`select count(*)::int as count from (select distinct repository, branch from admin.code_references) b`,
    );
  },
};
