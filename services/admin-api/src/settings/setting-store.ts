import { z } from 'zod';
import type { WriteTx } from '../events/write-tx.ts';
import { sql, type Queryable } from '@bunting/platform';

/** Instance-wide settings, one JSON document per name in admin.settings. */
export const settingStore = {
  content(db: Queryable, name: string) {
    return db.maybeOneFirst(
      sql.type(z.object({ content: z.unknown() }))`select content from admin.settings where name = ${name}`,
    );
  },
  exists(db: Queryable, name: string) {
    return db.exists(sql.unsafe`select 1 from admin.settings where name = ${name}`);
  },
  save(db: WriteTx, name: string, content: object) {
    return db.query(sql.unsafe`insert into admin.settings (name, content) values (${name}, ${sql.jsonb(content)})
      on conflict (name) do update set content = excluded.content, updated_at = now()`);
  },
};
