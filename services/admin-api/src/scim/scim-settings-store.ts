import { z } from 'zod';
import type { WriteTx } from '../events/write-tx.ts';
import { sql, type Queryable } from '@bunting/platform';

const Settings = z.object({ enabled: z.boolean(), tokenHash: z.string().nullable() });

/** Whether SCIM is on and the hash of the provider's token (one row). */
export const scimSettingsStore = {
  async get(db: Queryable): Promise<z.infer<typeof Settings>> {
    return (
      (await db.maybeOne(
        sql.type(Settings)`select enabled, token_hash as "tokenHash" from admin.scim_settings where id = 1`,
      )) ?? { enabled: false, tokenHash: null }
    );
  },
  async setEnabled(db: WriteTx, enabled: boolean): Promise<void> {
    await db.query(sql.unsafe`insert into admin.scim_settings (id, enabled) values (1, ${enabled})
      on conflict (id) do update set enabled = excluded.enabled, updated_at = now()`);
  },
  async setTokenHash(db: WriteTx, tokenHash: string): Promise<void> {
    await db.query(sql.unsafe`insert into admin.scim_settings (id, token_hash) values (1, ${tokenHash})
      on conflict (id) do update set token_hash = excluded.token_hash, updated_at = now()`);
  },
};
