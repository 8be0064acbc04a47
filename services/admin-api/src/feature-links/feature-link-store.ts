import { z } from 'zod';
import type { WriteTx } from '../events/write-tx.ts';
import { sql, type Queryable } from '@bunting/platform';

export const FeatureLinkRow = z.object({
  id: z.string(),
  url: z.string(),
  title: z.string().nullable(),
  feature: z.string(),
});
export type FeatureLinkRow = z.infer<typeof FeatureLinkRow>;

const columns = sql.fragment`id, url, title, feature_name as feature`;

export const featureLinkStore = {
  forFeatures(db: Queryable, names: readonly string[]) {
    return db.any(sql.type(FeatureLinkRow)`select ${columns} from admin.feature_links
      where feature_name = any(${sql.array(names, 'text')}) order by created_at, id`);
  },
  get(db: Queryable, feature: string, id: string) {
    return db.maybeOne(
      sql.type(
        FeatureLinkRow,
      )`select ${columns} from admin.feature_links where feature_name = ${feature} and id = ${id}`,
    );
  },
  count(db: Queryable, feature: string) {
    return db.oneFirst(
      sql.type(
        z.object({ count: z.number() }),
      )`select count(*)::int as count from admin.feature_links where feature_name = ${feature}`,
    );
  },
  insert(db: WriteTx, link: FeatureLinkRow) {
    return db.query(
      sql.unsafe`insert into admin.feature_links (id, feature_name, url, title) values (${link.id}, ${link.feature}, ${link.url}, ${link.title})`,
    );
  },
  update(db: WriteTx, link: FeatureLinkRow) {
    return db.query(
      sql.unsafe`update admin.feature_links set url = ${link.url}, title = ${link.title} where feature_name = ${link.feature} and id = ${link.id}`,
    );
  },
  delete(db: WriteTx, feature: string, id: string) {
    return db.query(sql.unsafe`delete from admin.feature_links where feature_name = ${feature} and id = ${id}`);
  },
};
