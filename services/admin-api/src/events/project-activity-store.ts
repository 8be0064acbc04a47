import { sql, type Queryable } from '@bunting/platform';

/** When each project last changed: every change that writes an event about a project moves it on. */
export const projectActivityStore = {
  touch(db: Queryable, projects: readonly string[]) {
    return db.query(sql.unsafe`update admin.projects set last_activity_at = now() where id = any(${sql.array(projects, 'text')})`);
  },
};
