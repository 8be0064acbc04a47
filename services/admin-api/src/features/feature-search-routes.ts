import { z } from 'zod';
import {
  FeatureSearchAnswer,
  FlagCreators,
  FlagCreatorsPage,
  FlagCreatorsQuery,
  FeatureSearchQuery,
  PathName,
} from '@bunting/contracts';
import type { HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allowRead } from '../access/guard.ts';
import { featureRows } from '../feature-state/feature-rows.ts';
import { searchFeatures } from './feature-search.ts';

const ProjectParams = z.object({ projectId: PathName });

/** Finding flags across projects with Unleash's search filters. */
export function featureSearchRoutes(app: HttpServer, { db }: Pick<AdminDeps, 'db'>) {
  app.get(
    '/api/admin/search/features',
    {
      schema: {
        summary: 'Search flags by name, project, type, tag, state and creator, paged and sorted',
        querystring: FeatureSearchQuery,
        response: { 200: FeatureSearchAnswer },
      },
      config: { etag: true },
    },
    async (request) => {
      const principal = allowRead(request);
      return searchFeatures(db, principal.key, request.query);
    },
  );

  // Who created flags anywhere, for the search page's creator filter (Unleash's UI asks with a limit).
  app.get(
    '/api/admin/flag-creators',
    {
      schema: {
        summary: 'Who has created flags, a page at a time, searched by name',
        querystring: FlagCreatorsQuery,
        response: { 200: FlagCreatorsPage },
      },
    },
    async (request) => {
      allowRead(request);
      const { q, offset, limit } = request.query;
      return featureRows.creatorsPage(db, { q, offset: offset ?? 0, limit: limit ?? 50 });
    },
  );

  // Who created the project's flags, for filtering by creator.
  app.get(
    '/api/admin/projects/:projectId/flag-creators',
    {
      schema: { summary: 'Who has created flags in a project', params: ProjectParams, response: { 200: FlagCreators } },
    },
    async (request) => {
      allowRead(request, { project: request.params.projectId });
      return featureRows.creators(db, request.params.projectId);
    },
  );
}
