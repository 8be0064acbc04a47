import { InventoryView, ProjectOverviewView, type Inventory, type ProjectOverview } from '@bunting/contracts';
import { askView, type Messaging } from '@bunting/platform';

/** What insights learns from admin-api, through its published views: never from its tables. */
export type AdminClient = {
  inventory: () => Promise<Inventory>;
  projectOverview: (projectId: string, principalKey: string) => Promise<ProjectOverview | null>;
};

export function adminClient(messaging: Messaging): AdminClient {
  return {
    inventory: () => askView(messaging, InventoryView, {}),
    projectOverview: (projectId, principalKey) => askView(messaging, ProjectOverviewView, { projectId, principalKey }),
  };
}
