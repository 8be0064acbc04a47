import { z } from 'zod';
import type { HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';

const TokenList = z.object({ tokens: z.array(z.string().max(1000)).max(1000) });

/**
 * Unleash Edge asks which of the SDK tokens it was given are valid, and what each may see. Only client and
 * frontend tokens are answered: those are what Edge serves. Unknown tokens are left out.
 */
export function edgeRoutes(app: HttpServer, { verifier }: AdminDeps) {
  app.post('/edge/validate', { schema: { body: TokenList } }, async (request) => {
    const tokens = [];
    for (const token of new Set(request.body.tokens)) {
      const principal = await verifier.verify({ authorization: token, session: null });
      if (!principal || (principal.tokenType !== 'client' && principal.tokenType !== 'frontend')) continue;
      tokens.push({ token, type: principal.tokenType, projects: principal.projects, environment: principal.environment ?? 'development' });
    }
    return { tokens };
  });
}
