import { z } from 'zod';
import { sql, type Queryable } from '@bunting/platform';
import type { WriteTx } from '../events/write-tx.ts';

export const CodeSettingsRow = z.object({
  project: z.string(),
  repository: z.string(),
  path: z.string().nullable(),
  writerUserId: z.number().nullable(),
});
export type CodeSettingsRow = z.infer<typeof CodeSettingsRow>;

const columns = sql.fragment`project_id as project, repository, path, writer_user_id as "writerUserId"`;

export const managedAsCodeStore = {
  get(db: Queryable, project: string) {
    return db.maybeOne(
      sql.type(CodeSettingsRow)`select ${columns} from admin.project_code_settings where project_id = ${project}`,
    );
  },
  forProjects(db: Queryable, projects: readonly string[]) {
    return db.any(
      sql.type(
        CodeSettingsRow,
      )`select ${columns} from admin.project_code_settings where project_id = any(${sql.array(projects, 'text')})`,
    );
  },
  put(db: WriteTx, row: CodeSettingsRow) {
    return db.query(sql.unsafe`insert into admin.project_code_settings (project_id, repository, path, writer_user_id)
      values (${row.project}, ${row.repository}, ${row.path}, ${row.writerUserId})
      on conflict (project_id) do update set repository = excluded.repository, path = excluded.path,
        writer_user_id = excluded.writer_user_id, updated_at = now()`);
  },
  remove(db: WriteTx, project: string) {
    return db.query(sql.unsafe`delete from admin.project_code_settings where project_id = ${project}`);
  },
};
