import { z } from 'zod';
import { sql, type Queryable } from '@bunting/platform';
import type { WriteTx } from '../events/write-tx.ts';

const Revision = z.object({
  scope: z.string(),
  revision: z.number(),
  hydratedRevision: z.number(),
  hydratedAt: z.string().nullable(),
});

/** The feed's revisions, and what its messages are read from: environments, the projects that have them. */
export const feedStore = {
  /**
   * The next revision of each scope, in name order (two changes reaching the same scopes lock them alike), taking each
   * row's lock until the change commits: revisions follow commit order, and so do the outbox rows that carry them.
   */
  async bump(tx: WriteTx, scopes: readonly string[]): Promise<Map<string, number>> {
    const revisions = new Map<string, number>();
    for (const scope of [...new Set(scopes)].sort()) {
      revisions.set(
        scope,
        await tx.oneFirst(sql.type(z.object({ revision: z.number() }))`
        insert into admin.feed_revisions (scope, revision) values (${scope}, 1)
        on conflict (scope) do update set revision = admin.feed_revisions.revision + 1
        returning revision::int8 as revision`),
      );
    }
    return revisions;
  },
  /** A scope's revision, locked for a hydration written at it (a change waits until it is in the outbox). */
  lockRevision(tx: WriteTx, scope: string) {
    return tx.maybeOneFirst(sql.type(z.object({ revision: z.number() }))`
      select revision::int8 as revision from admin.feed_revisions where scope = ${scope} for update`);
  },
  markHydrated(tx: WriteTx, scope: string, revision: number) {
    return tx.query(
      sql.unsafe`update admin.feed_revisions set hydrated_revision = ${revision}, hydrated_at = now() where scope = ${scope}`,
    );
  },
  all(db: Queryable) {
    return db.any(sql.type(Revision)`
      select scope, revision::int8 as revision, hydrated_revision::int8 as "hydratedRevision", hydrated_at as "hydratedAt"
      from admin.feed_revisions order by scope`);
  },
  environments(db: Queryable) {
    return db.anyFirst(sql.type(z.object({ name: z.string() }))`select name from admin.environments order by name`);
  },
  /** The environments any of these projects has. */
  environmentsOf(db: Queryable, projects: readonly string[]) {
    return db.anyFirst(sql.type(z.object({ environment: z.string() }))`
      select distinct environment from admin.project_environments where project_id = any(${sql.array([...projects], 'text')}) order by environment`);
  },
};
