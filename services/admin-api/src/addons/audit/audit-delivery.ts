import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { DomainEvent, type AccessEntry } from '@bunting/contracts';
import {
  eventsBacklogAfter,
  eventsPositionBefore,
  followIntoStore,
  type DatabasePool,
  type Logger,
  type Messaging,
  type Metrics,
  type RunningConsumer,
} from '@bunting/platform';
import { recordKeeping } from '../../events/write-tx.ts';
import { addonStore, type AddonRow } from '../addon-store.ts';
import { auditDestinationNamed } from './audit-destinations.ts';
import { auditPositionStore, type AuditPosition } from './audit-position-store.ts';
import { accessHistoryReadModel } from '../../access-history/access-history-read-model.ts';
import { onAccessRecorded } from '../../access-history/access-recorder.ts';
import { auditWants } from './audit-filter.ts';
import type { AuditContext } from './destinations/destination.ts';

/** Events a run reads at most: what one destination holds in memory, however long it has been down. */
const MAX_RUN = 500;
/** The created time of an integration is the database's, events are stamped by the process: a second of slack. */
const CLOCK_SLACK_MS = 1000;

type Running = {
  /** The destination as metrics name it (`<id>:<provider>`). */
  label: string;
  reader: RunningConsumer;
  access: { stop: () => Promise<void> } | undefined;
  generation: number;
  fingerprint: string;
};

export type AuditDeliveryOptions = {
  /** How often each replica looks for destinations to take, renew or let go. */
  tickMs: number;
  /** How long a lease holds without renewal: a replica that dies hands over after it. */
  leaseMs: number;
  /** The longest wait between tries to a destination that keeps failing. */
  maxRetryDelayMs: number;
  /** A destination whose deliveries have failed for this long shows as unhealthy. */
  unhealthyAfterMs: number;
};

export function isHealthy(
  position: { failingSince: string | null },
  unhealthyAfterMs: number,
  now = Date.now(),
): boolean {
  return position.failingSince === null || now - Date.parse(position.failingSince) < unhealthyAfterMs;
}

/**
 * Delivers the event stream to every enabled audit destination, in order and at least once. Each destination has a
 * lease in Postgres: the replica holding it runs the destination's reader, which reads the stream from the stored
 * position in runs, hands each run to the destination and moves the position past it only once the destination has
 * taken all of it. A failed run is tried again from the same position with growing waits; other destinations and
 * the event log do not wait for it. A replay (a new generation) restarts the reader from the position it set.
 */
export function startAuditDelivery(
  deps: { db: DatabasePool; messaging: Messaging; log: Logger; metrics: Metrics; context: AuditContext },
  options: AuditDeliveryOptions,
) {
  const { db, messaging, metrics, context } = deps;
  const log = deps.log.child({ component: 'audit-delivery' });
  const holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const running = new Map<number, Running>();
  const delivered = metrics.counter('bunting_audit_delivery_delivered_total', 'Events an audit destination took', [
    'destination',
  ]);
  const failed = metrics.counter(
    'bunting_audit_delivery_failed_total',
    'Deliveries to an audit destination that failed (each is tried again)',
    ['destination'],
  );
  const retried = metrics.counter(
    'bunting_audit_delivery_retried_total',
    'Deliveries to an audit destination that were tries again after a failure',
    ['destination'],
  );
  const label = (addon: Pick<AddonRow, 'id' | 'provider'>) => `${addon.id}:${addon.provider}`;

  /** A gauge with a value per destination this replica delivers, read from its position row when scraped. */
  const perDestination = (name: string, help: string, value: (position: AuditPosition) => Promise<number> | number) =>
    metrics.sampledGauge(name, help, ['destination']).addSource(async () => {
      const rows = await Promise.all(
        [...running.entries()].map(async ([id, current]) => {
          const position = await auditPositionStore.get(db, id);
          return position ? { labels: { destination: current.label }, value: await value(position) } : null;
        }),
      );
      return rows.filter((row) => row !== null);
    });
  const removeGauges = [
    perDestination(
      'bunting_audit_delivery_lag_seconds',
      'Age of the oldest event an audit destination has not taken',
      async (position) => (await eventsBacklogAfter(messaging, position.position)).lagSeconds,
    ),
    perDestination(
      'bunting_audit_delivery_healthy',
      'Whether an audit destination takes what it is sent (1) or not (0)',
      (position) => (isHealthy(position, options.unhealthyAfterMs) ? 1 : 0),
    ),
  ];

  function startReader(addon: AddonRow, generation: number): RunningConsumer {
    const destination = auditDestinationNamed(addon.provider)!;
    const name = label(addon);
    let failing = false;
    return followIntoStore({
      messaging,
      stream: messaging.names.eventsStream,
      filterSubject: messaging.names.eventsSubjects,
      schema: DomainEvent,
      reader: `audit:${name}`,
      maxRun: MAX_RUN,
      maxRetryDelayMs: options.maxRetryDelayMs,
      metrics,
      storedUpTo: async ({ created }) => {
        const { state } = await messaging.jsm.streams.info(messaging.names.eventsStream);
        const position = await recordKeeping(db, (tx) =>
          auditPositionStore.readFrom(tx, addon.id, holder, { created, firstSeq: state.first_seq }),
        );
        // Another replica holds it now: read nothing until this one is stopped.
        if (!position || position.generation !== generation) throw new Error('the lease or the position moved');
        return position.position;
      },
      store: async (run, upTo) => {
        const wanted = run.map((message) => message.value).filter((event) => auditWants(addon, event));
        if (wanted.length > 0) {
          if (failing) retried.inc({ destination: name });
          try {
            await destination.send(
              addon.parameters,
              wanted.map((event) => ({ kind: 'event', event })),
              context,
            );
          } catch (error) {
            failing = true;
            failed.inc({ destination: name });
            const message = (error as Error).message;
            // The reader logs the failure as it starts over; the position row keeps it for the console.
            await recordKeeping(db, (tx) => auditPositionStore.failed(tx, addon.id, holder, message)).catch(
              () => undefined,
            );
            throw error;
          }
        }
        failing = false;
        const moved = await recordKeeping(db, (tx) =>
          auditPositionStore.advance(tx, { addonId: addon.id, holder, generation, upTo, delivered: wanted.length }),
        );
        if (!moved) throw new Error('the lease or the position moved');
        delivered.inc({ destination: name }, wanted.length);
      },
    });
  }

  /**
   * Reads the sign-in history (a table of this service) after the destination's access position, in order, and
   * sends it the same way: the position moves only past what the destination took; a failure waits and tries again.
   */
  function startAccessReader(addon: AddonRow, generation: number): { stop: () => Promise<void> } {
    const destination = auditDestinationNamed(addon.provider)!;
    const name = label(addon);
    let stopped = false;
    let failures = 0;
    let wake: (() => void) | undefined;
    const unsubscribe = onAccessRecorded(() => wake?.());
    const pause = (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    const loop = (async () => {
      while (!stopped) {
        let entries: readonly AccessEntry[] = [];
        try {
          const position = await auditPositionStore.held(db, addon.id, holder);
          if (!position || position.generation !== generation) {
            await pause(options.tickMs);
            continue;
          }
          entries = await accessHistoryReadModel.after(db, position.accessPosition, MAX_RUN);
          if (entries.length === 0) {
            await pause(options.tickMs);
            continue;
          }
          if (failures > 0) retried.inc({ destination: name });
          await destination.send(
            addon.parameters,
            entries.map((access) => ({ kind: 'access', access })),
            context,
          );
          failures = 0;
          const moved = await recordKeeping(db, (tx) =>
            auditPositionStore.advanceAccess(tx, {
              addonId: addon.id,
              holder,
              generation,
              upTo: entries.at(-1)!.id,
              delivered: entries.length,
            }),
          );
          if (moved) delivered.inc({ destination: name }, entries.length);
        } catch (error) {
          if (stopped) break;
          failures += 1;
          if (entries.length > 0) {
            failed.inc({ destination: name });
            const message = (error as Error).message;
            await recordKeeping(db, (tx) => auditPositionStore.failed(tx, addon.id, holder, message)).catch(
              () => undefined,
            );
          }
          log.warn({ destination: name, err: error }, 'sign-in history delivery failed; trying again');
          await pause(Math.min(options.maxRetryDelayMs, 500 * 2 ** Math.min(failures, 10)));
        }
      }
    })();
    return {
      stop: async () => {
        stopped = true;
        unsubscribe();
        wake?.();
        await loop;
      },
    };
  }

  async function stopReader(id: number) {
    const current = running.get(id);
    if (!current) return;
    running.delete(id);
    await Promise.all([current.reader.stop(), current.access?.stop()]);
  }

  async function tick() {
    const addons = (await addonStore.list(db)).filter(
      (addon) => addon.enabled && auditDestinationNamed(addon.provider) !== undefined,
    );
    const wanted = new Set(addons.map((addon) => addon.id));
    for (const id of running.keys()) if (!wanted.has(id)) await stopReader(id);
    for (const addon of addons) {
      const existing = await auditPositionStore.get(db, addon.id);
      if (!existing) {
        // A new destination hears of what happens from its making on, even when it is taken up later.
        const since = new Date(Date.parse(addon.createdAt) - CLOCK_SLACK_MS);
        const start = await eventsPositionBefore(messaging, since);
        const accessPosition = await accessHistoryReadModel.lastIdBefore(db, since);
        await recordKeeping(db, (tx) => auditPositionStore.begin(tx, addon.id, { ...start, accessPosition }));
      }
      const claimed = await recordKeeping(db, (tx) => auditPositionStore.claim(tx, addon.id, holder, options.leaseMs));
      const current = running.get(addon.id);
      const fingerprint = JSON.stringify([addon.parameters, addon.events, addon.projects, addon.environments]);
      if (!claimed) {
        if (current) await stopReader(addon.id);
        continue;
      }
      if (current && current.generation === claimed.generation && current.fingerprint === fingerprint) continue;
      if (current) await stopReader(addon.id);
      running.set(addon.id, {
        label: label(addon),
        reader: startReader(addon, claimed.generation),
        access: addon.parameters.signIns === 'false' ? undefined : startAccessReader(addon, claimed.generation),
        generation: claimed.generation,
        fingerprint,
      });
    }
  }

  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<void> | undefined;
  const loop = () => {
    ticking = tick()
      .catch((error: unknown) => log.warn({ err: error }, 'audit delivery could not look at its destinations'))
      .finally(() => {
        if (!stopped) timer = setTimeout(loop, options.tickMs);
      });
  };
  loop();

  return {
    holder,
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await ticking;
      for (const remove of removeGauges) remove();
      const ids = [...running.keys()];
      await Promise.all(ids.map((id) => stopReader(id)));
      await Promise.all(
        ids.map((id) => recordKeeping(db, (tx) => auditPositionStore.release(tx, id, holder)).catch(() => undefined)),
      );
    },
  };
}
