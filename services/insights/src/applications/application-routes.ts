import { z } from 'zod';
import {
  ApplicationList,
  ApplicationView,
  ApplicationInstances,
  ApplicationOverview,
  OutdatedSdks,
  NoContent,
  ApplicationsQuery,
  CreateApplication,
  PathName,
  ProjectApplicationList,
  ProjectApplicationsQuery,
} from '@bunting/contracts';
import {
  NotFoundError,
  Permission,
  principalOf,
  requirePermission,
  type DatabasePool,
  type HttpServer,
} from '@bunting/platform';
import type { AnnounceApplications } from './application-events.ts';
import { applicationStore, type ApplicationRow } from './application-store.ts';
import { isOutdatedSdk, outdatedSdks } from './outdated-sdks.ts';

function view(row: ApplicationRow) {
  const optional = Object.fromEntries(
    (['sdkVersion', 'description', 'url', 'color', 'icon'] as const).flatMap((key) =>
      row[key] ? [[key, row[key]]] : [],
    ),
  );
  return { appName: row.appName, ...optional, strategies: row.strategies, usage: row.usage };
}

/** "unleash-client-node:6.12.1" as the SDK's name and version. */
function sdkOf(sdkVersion: string | null) {
  if (!sdkVersion) return [];
  const at = sdkVersion.lastIndexOf(':');
  return [{ name: at > 0 ? sdkVersion.slice(0, at) : sdkVersion, versions: at > 0 ? [sdkVersion.slice(at + 1)] : [] }];
}

const AppParams = z.object({ appName: PathName });

/** Applications seen through SDK registrations and metrics: listed, described, forgotten, with their instances and SDKs. */
export function applicationRoutes(app: HttpServer, db: DatabasePool, announce: AnnounceApplications) {
  app.get(
    '/api/admin/metrics/applications',
    {
      schema: {
        summary: 'List the applications SDKs have registered',
        querystring: ApplicationsQuery,
        response: { 200: ApplicationList },
      },
    },
    async (request) => {
      requirePermission(principalOf(request), Permission.READ);
      const { query, offset = 0, limit = 1000, sortOrder = 'asc' } = request.query;
      const { rows, total } = await applicationStore.list(db, {
        query,
        offset,
        limit,
        descending: sortOrder === 'desc',
      });
      return { total, applications: rows.map(view) };
    },
  );

  app.get(
    '/api/admin/metrics/applications/:appName',
    { schema: { summary: 'Get one application', params: AppParams, response: { 200: ApplicationView } } },
    async (request) => {
      requirePermission(principalOf(request), Permission.READ);
      const row = await applicationStore.get(db, request.params.appName);
      if (!row) throw new NotFoundError(`Could not find application ${request.params.appName}`);
      return view(row);
    },
  );

  // Describes an application (made if it was not seen yet, recording application-created).
  app.post(
    '/api/admin/metrics/applications/:appName',
    {
      schema: {
        summary: 'Describe an application (description, URL, colour, icon)',
        params: AppParams,
        body: CreateApplication,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      requirePermission(principalOf(request), Permission.UPDATE_APPLICATION);
      const { appName } = request.params;
      await db.transaction(async (tx) => {
        const now = new Date().toISOString();
        await announce(tx, await applicationStore.addSeen(tx, [appName], [now]));
        await applicationStore.describe(tx, appName, request.body);
      });
      return reply.code(200).send();
    },
  );

  // Forgets an application and its instances; it comes back when its SDK next reports.
  app.delete(
    '/api/admin/metrics/applications/:appName',
    { schema: { summary: 'Forget an application', params: AppParams, response: { 200: NoContent } } },
    async (request, reply) => {
      requirePermission(principalOf(request), Permission.UPDATE_APPLICATION);
      await db.transaction((tx) => applicationStore.forget(tx, request.params.appName));
      return reply.code(200).send();
    },
  );

  app.get(
    '/api/admin/metrics/instances/:appName/environment/:environment',
    {
      schema: {
        summary: "An application's instances in an environment",
        params: AppParams.extend({ environment: PathName }),
        response: { 200: ApplicationInstances },
      },
    },
    async (request) => {
      requirePermission(principalOf(request), Permission.READ);
      const instances = await applicationStore.instances(db, request.params.appName, request.params.environment);
      return { instances: instances.map(({ sdkVersion, ...instance }) => ({ ...instance, sdkVersion })) };
    },
  );

  // Where an application runs and which flags it asks for (missingFeatures: flags the configuration lacks).
  app.get(
    '/api/admin/metrics/applications/:appName/overview',
    {
      schema: {
        summary: "An application's environments, instances, SDKs and issues",
        params: AppParams,
        response: { 200: ApplicationOverview },
      },
    },
    async (request) => {
      requirePermission(principalOf(request), Permission.READ);
      const { appName } = request.params;
      if (!(await applicationStore.exists(db, appName)))
        throw new NotFoundError(`Could not find application ${appName}`);
      const [environments, projects, featureCount, missing] = await Promise.all([
        applicationStore.environmentsOf(db, appName),
        applicationStore.projectsOf(db, appName),
        applicationStore.featureCountOf(db, appName),
        applicationStore.missingFeaturesOf(db, appName),
      ]);
      return {
        projects,
        featureCount,
        environments: environments.map((environment) => ({
          ...environment,
          issues: {
            missingFeatures: missing.filter((row) => row.environment === environment.name).map((row) => row.name),
            outdatedSdks: environment.sdks.filter(isOutdatedSdk),
          },
        })),
        issues: { missingStrategies: [] },
      };
    },
  );

  // SDK versions older than Unleash's minimum for them, with the applications running them.
  app.get(
    '/api/admin/metrics/sdks/outdated',
    {
      schema: { summary: 'SDK versions in use that are outdated, and who uses them', response: { 200: OutdatedSdks } },
    },
    async (request) => {
      requirePermission(principalOf(request), Permission.READ);
      return { sdks: outdatedSdks(await applicationStore.instanceSdks(db)) };
    },
  );

  // The same for the applications that evaluate the project's flags.
  app.get(
    '/api/admin/projects/:projectId/sdks/outdated',
    {
      schema: {
        summary: "Outdated SDK versions using a project's flags",
        params: z.object({ projectId: PathName }),
        response: { 200: OutdatedSdks },
      },
    },
    async (request) => {
      requirePermission(principalOf(request), Permission.READ, { project: request.params.projectId });
      return { sdks: outdatedSdks(await applicationStore.instanceSdks(db, request.params.projectId)) };
    },
  );

  // The applications that evaluated flags of one project, by the metrics they sent.
  app.get(
    '/api/admin/projects/:projectId/applications',
    {
      schema: {
        summary: "The applications using a project's flags",
        params: z.object({ projectId: PathName }),
        querystring: ProjectApplicationsQuery,
        response: { 200: ProjectApplicationList },
      },
    },
    async (request) => {
      requirePermission(principalOf(request), Permission.READ, { project: request.params.projectId });
      const page = request.query;
      const rows = await applicationStore.ofProject(db, request.params.projectId);
      const matching = rows.filter((row) => !page.query || row.name.toLowerCase().includes(page.query.toLowerCase()));
      if (page.sortOrder === 'desc') matching.reverse();
      const offset = page.offset ?? 0;
      return {
        total: matching.length,
        applications: matching.slice(offset, offset + (page.limit ?? 50)).map((row) => ({
          name: row.name,
          environments: row.environments,
          instances: row.instances,
          sdks: sdkOf(row.sdkVersion),
        })),
      };
    },
  );
}
