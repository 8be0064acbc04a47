import type { DomainEvent } from '@bunting/contracts';
import { recordKeeping } from '../events/write-tx.ts';
import type { DatabasePool } from '@bunting/platform';
import { eventProviderNamed } from './addon-providers.ts';
import { addonStore, type AddonRow } from './addon-store.ts';
import type { DeliveryContext, Outgoing } from './providers/provider.ts';
import { payloadOf } from './providers/webhook.ts';

const TIMEOUT_MS = 5000;
const CLOCK_SLACK_MS = 1000;

/**
 * Whether an addon wants this event: its type, and its projects and environments when it names any. An audit
 * destination (`everyEventWhenNoneNamed`) that names no event type takes them all.
 */
export function wants(
  addon: Pick<AddonRow, 'events' | 'projects' | 'environments'>,
  event: Pick<DomainEvent, 'type' | 'project' | 'environment'>,
  options: { everyEventWhenNoneNamed?: boolean } = {},
): boolean {
  const within = (list: readonly string[], value: string | null) =>
    list.length === 0 || list.includes('*') || (value !== null && list.includes(value));
  return (
    (options.everyEventWhenNoneNamed ? within(addon.events, event.type) : addon.events.includes(event.type)) &&
    within(addon.projects, event.project) &&
    within(addon.environments, event.environment)
  );
}

type Outcome = { ok: boolean; timedOut: boolean; details: string };

async function send(service: string, request: Outgoing): Promise<Outcome> {
  try {
    const response = await fetch(request.url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    await response.body?.cancel();
    return response.ok
      ? { ok: true, timedOut: false, details: `${service} request was successful with status code: ${response.status}` }
      : { ok: false, timedOut: false, details: `${service} request failed with status code: ${response.status}` };
  } catch (error) {
    const message = (error as Error).message;
    return { ok: false, timedOut: /timeout|aborted/i.test(message), details: `${service} request failed: ${message}` };
  }
}

/**
 * Sends one event to every enabled addon that wants it, through its provider (a webhook, Slack, Teams, Datadog,
 * New Relic), and records the outcome. An addon already tried for the event (a redelivered message) is skipped.
 * Failures are recorded, not retried: a dead endpoint never holds up the stream.
 */
export async function deliverEvent(
  db: DatabasePool,
  event: DomainEvent,
  context: DeliveryContext,
  recordOutcome: (outcome: 'success' | 'failed' | 'timeout') => void = () => undefined,
): Promise<void> {
  // An addon hears of what happens after it was made, even when the stream is read late (or from its start);
  // a second of slack covers the clocks of the database and of the process that stamped the event.
  const addons = (await addonStore.listFor(db, event.type)).filter(
    (addon) => wants(addon, event) && Date.parse(event.createdAt) >= Date.parse(addon.createdAt) - CLOCK_SLACK_MS,
  );
  await Promise.all(
    addons.map(async (addon) => {
      const provider = eventProviderNamed(addon.provider);
      if (!provider || (await addonStore.wasDelivered(db, addon.id, event.uuid))) return;
      let requests: Outgoing[];
      try {
        requests = await provider.requests(addon.parameters, event, context);
      } catch (error) {
        requests = [];
        await recordKeeping(db, (tx) =>
          addonStore.recordDelivery(tx, {
            addonId: addon.id,
            eventUuid: event.uuid,
            state: 'failed',
            details: `Could not make the ${provider.service} request: ${(error as Error).message}`,
            event: payloadOf(event),
            request: { url: null, contentType: null, body: '' },
          }),
        );
        recordOutcome('failed');
        return;
      }
      const outcomes = await Promise.all(requests.map((request) => send(provider.service, request)));
      const ok = outcomes.every((outcome) => outcome.ok);
      recordOutcome(ok ? 'success' : outcomes.some((outcome) => outcome.timedOut) ? 'timeout' : 'failed');
      const first = requests[0];
      await recordKeeping(db, (tx) =>
        addonStore.recordDelivery(tx, {
          addonId: addon.id,
          eventUuid: event.uuid,
          state: ok ? 'success' : outcomes.some((outcome) => outcome.ok) ? 'successWithErrors' : 'failed',
          details:
            outcomes.length > 0
              ? outcomes.map((outcome) => outcome.details).join('\n')
              : 'Nothing to send: no channel was named',
          event: payloadOf(event),
          request: {
            url: first?.url ?? null,
            contentType: first?.headers['content-type'] ?? null,
            body: (first?.shown ?? '').slice(0, 10_000),
          },
        }),
      );
    }),
  );
}
