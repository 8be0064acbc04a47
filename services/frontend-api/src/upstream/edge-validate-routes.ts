import { EdgeTokenList, EdgeTokenValidation } from '@bunting/contracts';
import type { HttpServer } from '@bunting/platform';
import type { EdgeTokens } from './edge-tokens.ts';

/** POST /edge/validate at a standalone edge, so another edge can follow this one (edges chain). */
export function edgeValidateRoutes(app: HttpServer, tokens: Pick<EdgeTokens, 'validate'>) {
  app.post(
    '/edge/validate',
    {
      schema: {
        summary: 'Which of the given tokens this edge accepts, for an edge chained behind it',
        body: EdgeTokenList,
        response: { 200: EdgeTokenValidation },
      },
    },
    async (request) => {
      const valid = await tokens.validate(request.body.tokens);
      return {
        tokens: valid.map(({ secret, type, environment, projects }) => ({
          token: secret,
          type,
          environment,
          projects,
        })),
      };
    },
  );
}
