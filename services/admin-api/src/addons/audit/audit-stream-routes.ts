import { z } from 'zod';
import { AuditDeliveryStatus, AuditReplayInput, EventTimeView, NumericId } from '@bunting/contracts';
import {
  NotFoundError,
  Permission,
  ValidationError,
  askView,
  eventsBacklogAfter,
  eventsPositionBefore,
  type HttpServer,
} from '@bunting/platform';
import type { AdminDeps } from '../../app-deps.ts';
import { allow } from '../../access/guard.ts';
import { addonView, requireAddon } from '../addon-service.ts';
import { auditDestinationNamed } from './audit-destinations.ts';
import { auditPositionStore } from './audit-position-store.ts';
import { accessHistoryReadModel } from '../../access-history/access-history-read-model.ts';
import { isHealthy } from './audit-delivery.ts';

const IdParams = z.object({ id: NumericId });

async function requireAuditDestination(db: AdminDeps['db'], id: number) {
  const addon = await requireAddon(db, id);
  if (!auditDestinationNamed(addon.provider))
    throw ValidationError.field('id', `integration ${id} (${addon.provider}) is no audit destination`);
  return addon;
}

/** Where an audit destination's delivery stands, and replaying it from a time. Admins only, as for integrations. */
export function auditStreamRoutes(
  app: HttpServer,
  { db, changes, messaging, config }: Pick<AdminDeps, 'db' | 'changes' | 'messaging' | 'config'>,
) {
  app.get(
    '/api/admin/addons/:id/audit-status',
    {
      schema: {
        summary: "An audit destination's delivery: position, lag, health, last failure",
        params: IdParams,
        response: { 200: AuditDeliveryStatus },
      },
    },
    async (request) => {
      allow(request, Permission.ADMIN);
      const addon = await requireAuditDestination(db, request.params.id);
      const position = await auditPositionStore.get(db, addon.id);
      const backlog = position ? await eventsBacklogAfter(messaging, position.position) : { pending: 0, lagSeconds: 0 };
      return {
        id: addon.id,
        provider: addon.provider,
        enabled: addon.enabled,
        healthy: position ? isHealthy(position, config.auditDelivery.unhealthyAfterMs) : true,
        position: position?.position ?? 0,
        pending: backlog.pending,
        lagSeconds: backlog.lagSeconds,
        delivered: position?.delivered ?? 0,
        failures: position?.failures ?? 0,
        lastError: position?.lastError ?? null,
        failingSince: position?.failingSince ?? null,
        lastDeliveredAt: position?.lastDeliveredAt ?? null,
        missed: position?.missed ?? 0,
      };
    },
  );

  app.post(
    '/api/admin/addons/:id/audit-replay',
    {
      schema: {
        summary: 'Deliver an audit destination again everything the stream holds from a time on',
        params: IdParams,
        body: AuditReplayInput,
        response: { 202: AuditDeliveryStatus.pick({ id: true, position: true }) },
      },
    },
    async (request, reply) => {
      const principal = allow(request, Permission.ADMIN);
      const addon = await requireAuditDestination(db, request.params.id);
      const body = request.body;
      let from: Date;
      if ('from' in body) from = new Date(body.from);
      else {
        const { createdAt } = await askView(
          messaging,
          EventTimeView,
          typeof body.fromEvent === 'number' ? { id: body.fromEvent } : { uuid: body.fromEvent },
        );
        if (createdAt === null) throw new NotFoundError(`The event log has no event ${body.fromEvent}`);
        from = new Date(createdAt);
      }
      const start = {
        ...(await eventsPositionBefore(messaging, from)),
        accessPosition: await accessHistoryReadModel.lastIdBefore(db, from),
      };
      const position = await changes.run(principal, async ({ tx, emit }) => {
        const rewound =
          (await auditPositionStore.rewind(tx, addon.id, start)) ??
          (await auditPositionStore.begin(tx, addon.id, start), await auditPositionStore.rewind(tx, addon.id, start));
        // Who replayed what is part of the audit trail: an update of the integration, its replay in the data.
        emit({
          type: 'addon-config-updated',
          data: { ...addonView(addon), auditReplayFrom: from.toISOString() },
          preData: addonView(addon),
        });
        return rewound!.position;
      });
      return reply.code(202).send({ id: addon.id, position });
    },
  );
}
