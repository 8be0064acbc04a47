import { z } from 'zod';
import type { WriteTx } from '../events/write-tx.ts';
import { sql, type Queryable } from '@bunting/platform';

/** The UI screens and tips each user has dismissed. */
export const splashStore = {
  markSeen(db: WriteTx, userId: number, splashId: string) {
    return db.query(
      sql.unsafe`insert into admin.user_splash (user_id, splash_id) values (${userId}, ${splashId}) on conflict do nothing`,
    );
  },
  seenBy(db: Queryable, userId: number) {
    return db.anyFirst(
      sql.type(
        z.object({ splash_id: z.string() }),
      )`select splash_id from admin.user_splash where user_id = ${userId} order by splash_id`,
    );
  },
};
