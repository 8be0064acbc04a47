import { z } from 'zod';
import { sql, type Queryable } from '@bunting/platform';

const FeatureTagRow = z.object({ featureName: z.string(), type: z.string(), value: z.string() });

/** The tags events of a flag carry, read in the change's own transaction. */
export const eventTagStore = {
  forFeatures: (db: Queryable, featureNames: readonly string[]) =>
    db.any(sql.type(FeatureTagRow)`
    select feature_name as "featureName", tag_type as type, tag_value as value from admin.feature_tags
    where feature_name = any(${sql.array(featureNames, 'text')}) order by created_at, tag_type, tag_value`),
};
