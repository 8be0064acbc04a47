import { EdgeTokenValidation, EdgeTokenList } from '@bunting/contracts';
import type { HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';

/**
 * Unleash Edge asks which of the SDK tokens it was given are valid, and what each may see. Only client and
 * frontend tokens are answered: those are what Edge serves. Unknown tokens are left out.
 */
export function edgeRoutes(app: HttpServer, { verifier }: Pick<AdminDeps, 'verifier'>) {
  app.post(
    '/edge/validate',
    {
      schema: {
        summary: 'Which of the given tokens are valid, for Unleash Edge',
        body: EdgeTokenList,
        response: { 200: EdgeTokenValidation },
      },
    },
    async (request) => {
      const tokens = [];
      for (const token of new Set(request.body.tokens)) {
        const principal = await verifier.verify({ authorization: token, session: null });
        if (!principal || (principal.tokenType !== 'client' && principal.tokenType !== 'frontend')) continue;
        tokens.push({
          token,
          type: principal.tokenType,
          projects: principal.projects,
          environment: principal.environment ?? 'development',
        });
      }
      return { tokens };
    },
  );
}
