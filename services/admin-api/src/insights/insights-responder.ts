import { gzipSync } from 'node:zlib';
import { ProjectOverviewRequest } from '@bunting/contracts';
import { answerRequests, type DatabasePool, type Messaging } from '@bunting/platform';
import { loadInventory } from './inventory-query.ts';
import { loadProjectOverview } from './project-overview.ts';

const gzipJson = (value: unknown) => gzipSync(JSON.stringify(value));

/**
 * Answers the insights service's questions about what admin-api owns: the inventory behind statistics and
 * trends, and one project's overview for its health report. Gzipped JSON, as large projects list many flags.
 */
export function answerInsightsRequests(messaging: Messaging, db: DatabasePool) {
  const failure = () => gzipJson({ error: 'unavailable' });
  const inventory = answerRequests({
    messaging,
    subject: messaging.names.inventory,
    queue: 'admin-api',
    handle: async () => gzipJson({ inventory: await loadInventory(db) }),
    failure,
  });
  const overview = answerRequests({
    messaging,
    subject: messaging.names.projectOverview,
    queue: 'admin-api',
    handle: async (request) => {
      const { projectId, principalKey } = ProjectOverviewRequest.parse(request);
      const found = await loadProjectOverview(db, projectId, principalKey);
      return gzipJson(found ? { overview: found } : { notFound: true });
    },
    failure,
  });
  return {
    stop: () => {
      inventory.stop();
      overview.stop();
    },
  };
}
