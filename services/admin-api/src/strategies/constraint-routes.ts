import { NoContent, ConstraintInput } from '@bunting/contracts';
import type { HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allowRead } from '../access/guard.ts';
import { normalizeConstraints } from '../rules/constraint-rules.ts';

export function constraintRoutes(app: HttpServer, { db }: AdminDeps) {
  // Checks one constraint as a strategy would (operator, values, dates, numbers, semver, legal values); 204 if good.
  app.post(
    '/api/admin/constraints/validate',
    { schema: { summary: 'Check one constraint', body: ConstraintInput, response: { 204: NoContent } } },
    async (request, reply) => {
      allowRead(request);
      await normalizeConstraints(db, [request.body], 'constraint');
      return reply.code(204).send();
    },
  );
}
