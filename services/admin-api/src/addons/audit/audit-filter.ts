import type { DomainEvent } from '@bunting/contracts';
import type { AddonRow } from '../addon-store.ts';

/**
 * Whether an audit destination wants an event. Each list filters only when it names something: a destination that
 * names no event types, projects or environments takes everything (the audit log whole).
 */
export function auditWants(
  destination: Pick<AddonRow, 'events' | 'projects' | 'environments'>,
  event: Pick<DomainEvent, 'type' | 'project' | 'environment'>,
): boolean {
  const within = (list: readonly string[], value: string | null) =>
    list.length === 0 || list.includes('*') || (value !== null && list.includes(value));
  return (
    within(destination.events, event.type) &&
    within(destination.projects, event.project) &&
    within(destination.environments, event.environment)
  );
}
