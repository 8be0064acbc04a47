import { z } from 'zod';

/** Paging and search of /api/admin/metrics/applications. */
export const ApplicationsQuery = z.object({
  query: z.string().max(255).optional(),
  offset: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  sortBy: z.enum(['appName']).optional(),
  sortOrder: z.enum(['asc', 'desc']).optional(),
});

/** The same for a project's applications, which Unleash also lets sort by `name`. */
export const ProjectApplicationsQuery = ApplicationsQuery.extend({ sortBy: z.enum(['name', 'appName']).optional() });

/** createApplicationSchema: what an admin says of an application. */
export const CreateApplication = z.object({
  description: z.string().max(1000).optional(),
  url: z.string().max(2000).optional(),
  color: z.string().max(100).optional(),
  icon: z.string().max(2000).optional(),
  strategies: z.array(z.string().max(255)).max(100).optional(),
});

/** `hoursBack` of a flag's raw metrics: one hour to two weeks. */
export const RawMetricsQuery = z.object({ hoursBack: z.coerce.number().int().min(1).max(336).optional() });
