import { ImportToggles, ImportValidateResult } from '@bunting/contracts';
import type { HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allowRead } from '../access/guard.ts';
import { validateImport } from './import-validation.ts';

export function importRoutes(app: HttpServer, { db }: AdminDeps) {
  app.post('/api/admin/features-batch/validate', { schema: { body: ImportToggles, response: { 200: ImportValidateResult } } }, async (request) => {
    const principal = allowRead(request);
    return validateImport(db, principal, request.body);
  });
}
