import { z } from 'zod';
import type { WriteTx } from '../events/write-tx.ts';
import { Banner, type CreateBanner } from '@bunting/contracts';
import { sql, type Queryable } from '@bunting/platform';

const columns = sql.fragment`id, message, enabled, variant, sticky, icon, link, link_text as "linkText",
  dialog_title as "dialogTitle", dialog, created_at as "createdAt"`;

type BannerWrite = Required<{ [K in keyof CreateBanner]: Exclude<CreateBanner[K], undefined> }>;

export const bannerStore = {
  list: (db: Queryable) => db.any(sql.type(Banner)`select ${columns} from admin.banners order by id`),
  get: (db: Queryable, id: number) =>
    db.maybeOne(sql.type(Banner)`select ${columns} from admin.banners where id = ${id}`),
  insert(db: WriteTx, banner: BannerWrite) {
    return db.oneFirst(sql.type(z.object({ id: z.number() }))`
      insert into admin.banners (message, enabled, variant, sticky, icon, link, link_text, dialog_title, dialog)
      values (${banner.message}, ${banner.enabled}, ${banner.variant}, ${banner.sticky}, ${banner.icon}, ${banner.link},
        ${banner.linkText}, ${banner.dialogTitle}, ${banner.dialog})
      returning id`);
  },
  update(db: WriteTx, id: number, banner: BannerWrite) {
    return db.query(sql.unsafe`
      update admin.banners set message = ${banner.message}, enabled = ${banner.enabled}, variant = ${banner.variant}, sticky = ${banner.sticky},
        icon = ${banner.icon}, link = ${banner.link}, link_text = ${banner.linkText}, dialog_title = ${banner.dialogTitle}, dialog = ${banner.dialog}
      where id = ${id}`);
  },
  setEnabled: (db: WriteTx, id: number, enabled: boolean) =>
    db.query(sql.unsafe`update admin.banners set enabled = ${enabled} where id = ${id}`),
  delete: (db: WriteTx, id: number) => db.query(sql.unsafe`delete from admin.banners where id = ${id}`),
};
