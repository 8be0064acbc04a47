import type { DomainEvent, Inventory } from '@bunting/contracts';
import type { DatabasePool, Queryable } from '@bunting/platform';
import { factStore } from './fact-store.ts';

/** How many project members an event adds, for the health report's "members added" window. */
export function membersAdded(event: Pick<DomainEvent, 'type' | 'data'>): number {
  if (event.type === 'project-user-added' || event.type === 'project-group-added') return 1;
  if (event.type !== 'project-access-added') return 0;
  const data = event.data ?? {};
  const count = (value: unknown) => (Array.isArray(value) ? value.length : 0);
  return count(data.users) + count(data.groups);
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * Keeps what insights needs of one domain event, once: a redelivered event finds its uuid taken. Flags' projects
 * and environments' types are learned on the way, so metrics and changes can be attributed before the next
 * inventory snapshot.
 */
export async function recordEvent(db: DatabasePool, event: DomainEvent): Promise<void> {
  await db.transaction(async (tx) => {
    await factStore.recordEvent(tx, { ...event, membersAdded: membersAdded(event) });
    if (
      event.featureName &&
      event.project &&
      (event.type === 'feature-created' || event.type === 'feature-project-change')
    ) {
      await factStore.setFeatureProjects(tx, [[event.featureName, event.project]]);
    }
    const environmentType = text(event.data?.type);
    const environmentName = text(event.data?.name) ?? event.environment;
    if (
      (event.type === 'environment-created' || event.type === 'environment-updated') &&
      environmentName &&
      environmentType
    ) {
      await factStore.setEnvironmentTypes(tx, [{ name: environmentName, type: environmentType }]);
    }
  });
}

/** What the inventory says of flags' projects and environments' types, kept for attributing metrics and changes. */
export async function learnInventory(tx: Queryable, inventory: Inventory): Promise<void> {
  await factStore.setEnvironmentTypes(tx, inventory.environments);
  await factStore.setFeatureProjects(tx, Object.entries(inventory.featureProjects));
}
