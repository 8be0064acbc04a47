import { z } from 'zod';
import { FeatureVariants, PatchOperations, PathName, PushVariants, VariantInput } from '@bunting/contracts';
import { Permission, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allow, allowRead } from '../access/guard.ts';
import { variantService } from './variant-service.ts';

const FeatureParams = z.object({ projectId: PathName, featureName: PathName });
const EnvironmentParams = FeatureParams.extend({ environment: PathName });
const Variants = z.array(VariantInput).max(100);

export function variantRoutes(app: HttpServer, { db, changes }: Pick<AdminDeps, 'db' | 'changes'>) {
  const feature = '/api/admin/projects/:projectId/features/:featureName';

  app.get(
    `${feature}/variants`,
    {
      schema: {
        summary: "A flag's variants (deprecated: they are per environment)",
        params: FeatureParams,
        response: { 200: FeatureVariants },
      },
    },
    async (request) => {
      allowRead(request, { project: request.params.projectId });
      return variantService.getLegacy(db, request.params.projectId, request.params.featureName);
    },
  );

  app.get(
    `${feature}/environments/:environment/variants`,
    {
      schema: {
        summary: "A flag's variants in an environment",
        params: EnvironmentParams,
        response: { 200: FeatureVariants },
      },
    },
    async (request) => {
      const { projectId, featureName, environment } = request.params;
      allowRead(request, { project: projectId, environment });
      return variantService.get(db, projectId, featureName, environment);
    },
  );

  app.put(
    `${feature}/environments/:environment/variants`,
    {
      schema: {
        summary: "Replace a flag's variants in an environment",
        params: EnvironmentParams,
        body: Variants,
        response: { 200: FeatureVariants },
      },
    },
    async (request) => {
      const { projectId, featureName, environment } = request.params;
      const principal = allow(request, Permission.UPDATE_FEATURE_ENVIRONMENT_VARIANTS, {
        project: projectId,
        environment,
      });
      return changes.run(principal, (change) =>
        variantService.put(change, projectId, featureName, environment, request.body),
      );
    },
  );

  app.patch(
    `${feature}/environments/:environment/variants`,
    {
      schema: {
        summary: "Change a flag's variants in an environment with a JSON Patch",
        params: EnvironmentParams,
        body: PatchOperations,
        response: { 200: FeatureVariants },
      },
    },
    async (request) => {
      const { projectId, featureName, environment } = request.params;
      const principal = allow(request, Permission.UPDATE_FEATURE_ENVIRONMENT_VARIANTS, {
        project: projectId,
        environment,
      });
      return changes.run(principal, (change) =>
        variantService.patch(change, projectId, featureName, environment, request.body),
      );
    },
  );

  app.put(
    `${feature}/variants-batch`,
    {
      schema: {
        summary: "Replace a flag's variants in several environments",
        params: FeatureParams,
        body: PushVariants,
        response: { 200: FeatureVariants },
      },
    },
    async (request) => {
      const { projectId, featureName } = request.params;
      const principal = allow(request, Permission.UPDATE_FEATURE_ENVIRONMENT_VARIANTS, { project: projectId });
      return changes.run(principal, (change) =>
        variantService.putInEnvironments(
          change,
          projectId,
          featureName,
          request.body.environments,
          request.body.variants,
        ),
      );
    },
  );
}
