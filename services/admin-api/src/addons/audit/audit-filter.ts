import type { DomainEvent } from '@bunting/contracts';
import { wants } from '../addon-delivery.ts';
import type { AddonRow } from '../addon-store.ts';

/**
 * Whether an audit destination wants an event: the integrations' filter, except that a destination naming no event
 * type takes every one (the audit log whole).
 */
export const auditWants = (
  destination: Pick<AddonRow, 'events' | 'projects' | 'environments'>,
  event: Pick<DomainEvent, 'type' | 'project' | 'environment'>,
): boolean => wants(destination, event, { everyEventWhenNoneNamed: true });
