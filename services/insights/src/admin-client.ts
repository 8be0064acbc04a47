import {
  FeatureLookupView,
  InventoryView,
  ProjectOverviewView,
  type Inventory,
  type ProjectOverview,
} from '@bunting/contracts';
import { askView, type Messaging } from '@bunting/platform';

/** What insights learns from admin-api, through its published views: never from its tables. */
export type AdminClient = {
  inventory: () => Promise<Inventory>;
  projectOverview: (projectId: string, principalKey: string) => Promise<ProjectOverview | null>;
  /** Which project a flag is in; null when there is no such flag. */
  feature: (featureName: string) => Promise<{ project: string; archived: boolean } | null>;
};

export function adminClient(messaging: Messaging): AdminClient {
  return {
    inventory: () => askView(messaging, InventoryView, {}),
    projectOverview: (projectId, principalKey) => askView(messaging, ProjectOverviewView, { projectId, principalKey }),
    feature: (featureName) => askView(messaging, FeatureLookupView, { featureName }),
  };
}
