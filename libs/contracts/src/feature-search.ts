import { z } from 'zod';
import { Feature, FeatureEnvironment } from './features.ts';

const listOperator = /^(IS|IS_NOT|IS_ANY_OF|IS_NONE_OF):(.+)$/;
const includeOperator = /^(INCLUDE|DO_NOT_INCLUDE|INCLUDE_ALL_OF|INCLUDE_ANY_OF|EXCLUDE_IF_ANY_OF|EXCLUDE_ALL):(.+)$/;
const dateOperator = /^(IS_BEFORE|IS_ON_OR_AFTER):(\d{4}-\d{2}-\d{2})$/;
const ListFilter = z
  .string()
  .max(2000)
  .regex(listOperator, 'must be OPERATOR:value[,value...] with IS, IS_NOT, IS_ANY_OF or IS_NONE_OF');
const IncludeFilter = z
  .string()
  .max(2000)
  .regex(
    includeOperator,
    'must be OPERATOR:value[,value...] with INCLUDE, DO_NOT_INCLUDE, INCLUDE_ALL_OF, INCLUDE_ANY_OF, EXCLUDE_IF_ANY_OF or EXCLUDE_ALL',
  );
const DateFilter = z.string().regex(dateOperator, 'must be IS_BEFORE:YYYY-MM-DD or IS_ON_OR_AFTER:YYYY-MM-DD');

/** GET /api/admin/search/features: Unleash's filter grammar, OPERATOR:value,value. */
export const FeatureSearchQuery = z.object({
  query: z.string().max(255).optional(),
  project: ListFilter.optional(),
  state: ListFilter.optional(),
  lifecycle: ListFilter.optional(),
  type: ListFilter.optional(),
  createdBy: ListFilter.optional(),
  tag: IncludeFilter.optional(),
  segment: IncludeFilter.optional(),
  status: z.union([z.string(), z.array(z.string())]).optional(),
  offset: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  sortBy: z.enum(['name', 'type', 'createdAt', 'lastSeenAt', 'project', 'stale']).optional(),
  sortOrder: z.enum(['asc', 'desc']).optional(),
  favoritesFirst: z.enum(['true', 'false']).optional(),
  archived: z.enum(['IS:true', 'IS:false']).optional(),
  favorite: z
    .string()
    .regex(/^(IS|IS_ANY_OF):(true|false)(,(true|false))*$/)
    .optional(),
  createdAt: DateFilter.optional(),
  lastSeenAt: DateFilter.optional(),
});
export type FeatureSearchQuery = z.infer<typeof FeatureSearchQuery>;

/** The operator patterns, for the service that reads the filters. */
export const FEATURE_SEARCH_OPERATORS = { listOperator, includeOperator, dateOperator };

/** One flag in a search answer: the flag without its strategies and variants, with its segments' names. */
export const FeatureSearchItem = Feature.pick({
  type: true,
  description: true,
  name: true,
  createdAt: true,
  tags: true,
  createdBy: true,
  project: true,
  impressionData: true,
  stale: true,
  archivedAt: true,
  favorite: true,
  lastSeenAt: true,
  lifecycle: true,
}).extend({
  dependencyType: z.enum(['child', 'parent']).nullable(),
  environments: z.array(FeatureEnvironment.omit({ strategies: true, variants: true })),
  segments: z.array(z.string()),
});
export type FeatureSearchItem = z.infer<typeof FeatureSearchItem>;

/** GET /api/admin/search/features */
export const FeatureSearchAnswer = z.object({ total: z.number(), features: z.array(FeatureSearchItem) });
export type FeatureSearchResult = z.infer<typeof FeatureSearchAnswer>;
