import { gunzipSync } from 'node:zlib';
import { InventoryReply, ProjectOverviewReply, type Inventory, type ProjectOverview } from '@bunting/contracts';
import { DomainError, type Messaging } from '@bunting/platform';

const TIMEOUT_MS = 10_000;

function unavailable() {
  return new DomainError(503, 'ServiceUnavailableError', 'Configuration data is unavailable right now; try again shortly.');
}

async function ask(messaging: Messaging, subject: string, body: unknown): Promise<unknown> {
  try {
    const reply = await messaging.nc.request(subject, JSON.stringify(body), { timeout: TIMEOUT_MS });
    return JSON.parse(gunzipSync(reply.data).toString('utf8'));
  } catch {
    throw unavailable();
  }
}

/** What insights learns from admin-api, over NATS request-reply: never from its tables. */
export type AdminClient = {
  inventory: () => Promise<Inventory>;
  projectOverview: (projectId: string, principalKey: string) => Promise<ProjectOverview | null>;
};

export function adminClient(messaging: Messaging): AdminClient {
  return {
    async inventory() {
      const reply = InventoryReply.safeParse(await ask(messaging, messaging.names.inventory, {}));
      if (!reply.success || 'error' in reply.data) throw unavailable();
      return reply.data.inventory;
    },
    async projectOverview(projectId, principalKey) {
      const reply = ProjectOverviewReply.safeParse(await ask(messaging, messaging.names.projectOverview, { projectId, principalKey }));
      if (!reply.success || 'error' in reply.data) throw unavailable();
      return 'notFound' in reply.data ? null : reply.data.overview;
    },
  };
}
