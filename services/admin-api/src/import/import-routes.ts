import { NoContent, ExportQuery, ExportResult, ImportToggles, ImportValidateResult } from '@bunting/contracts';
import { Permission, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allow, allowRead } from '../access/guard.ts';
import { exportFeatures } from './feature-export.ts';
import { importFeatures } from './feature-import.ts';
import { validateImport } from './import-validation.ts';

export function importRoutes(app: HttpServer, { db, changes, config }: Pick<AdminDeps, 'db' | 'changes' | 'config'>) {
  const bodyLimit = config.importBodyLimit;
  app.post(
    '/api/admin/features-batch/validate',
    {
      bodyLimit,
      schema: {
        summary: 'Check an import without applying it: errors, warnings and what would change',
        body: ImportToggles,
        response: { 200: ImportValidateResult },
      },
    },
    async (request) => {
      const principal = allowRead(request);
      return validateImport(db, principal, request.body);
    },
  );

  app.post(
    '/api/admin/features-batch/export',
    {
      schema: {
        summary: 'Export flags with their strategies, variants, tags, segments and context fields',
        body: ExportQuery,
        response: { 200: ExportResult },
      },
    },
    async (request, reply) => {
      const principal = allow(request, Permission.READ);
      const result = await changes.run(principal, (change) => exportFeatures(change, request.body));
      if (request.body.downloadFile) {
        reply.header(
          'content-disposition',
          `attachment; filename="export-${new Date().toISOString().slice(0, 10)}.json"`,
        );
      }
      return result;
    },
  );

  // Permissions are checked per need inside (the validation's list), so reading is enough to get there.
  app.post(
    '/api/admin/features-batch/import',
    {
      bodyLimit,
      schema: {
        summary: 'Import flags into a project and environment, in one transaction',
        body: ImportToggles,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const principal = allowRead(request, { project: request.body.project });
      await changes.run(principal, (change) => importFeatures(change, principal, request.body));
      return reply.code(200).send();
    },
  );
}
