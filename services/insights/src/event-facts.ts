import type { DomainEvent } from '@bunting/contracts';
import { sql, type DatabasePool } from '@bunting/platform';

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
    await tx.query(sql.unsafe`
      insert into insights.events (uuid, type, created_at, project, environment, feature_name, members_added)
      values (${event.uuid}, ${event.type}, ${event.createdAt}, ${event.project}, ${event.environment},
        ${event.featureName}, ${membersAdded(event)})
      on conflict (uuid) do nothing`);
    if (event.featureName && event.project && (event.type === 'feature-created' || event.type === 'feature-project-change')) {
      await tx.query(sql.unsafe`
        insert into insights.feature_projects (feature_name, project) values (${event.featureName}, ${event.project})
        on conflict (feature_name) do update set project = excluded.project`);
    }
    const environmentType = text(event.data?.type);
    const environmentName = text(event.data?.name) ?? event.environment;
    if ((event.type === 'environment-created' || event.type === 'environment-updated') && environmentName && environmentType) {
      await tx.query(sql.unsafe`
        insert into insights.environment_types (name, type) values (${environmentName}, ${environmentType})
        on conflict (name) do update set type = excluded.type`);
    }
  });
}
