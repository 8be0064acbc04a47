import type { DomainEvent } from '@bunting/contracts';
import type { DatabasePool } from '@bunting/platform';
import { addonStore, type AddonRow } from './addon-store.ts';

const TIMEOUT_MS = 5000;
const CLOCK_SLACK_MS = 1000;

/** What a webhook receives by default, and what templates read as `event`: the event as the log shows it. */
function payloadOf(event: DomainEvent) {
  const { groupId: _groupId, ...rest } = event;
  return rest;
}

/**
 * Fills `{{event.type}}`-style placeholders from the event: text as it is, anything else as JSON, missing as
 * nothing. (Unleash uses Mustache; this covers the placeholders its templates use.)
 */
export function renderTemplate(template: string, event: DomainEvent): string {
  const scope: Record<string, unknown> = { event: payloadOf(event) };
  return template.replace(/\{\{\{?\s*([\w.]+)\s*\}?\}\}/g, (_match, path: string) => {
    let value: unknown = scope;
    for (const key of path.split('.')) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
    if (value === undefined || value === null) return '';
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
}

/** Whether an addon wants this event: its type, and its projects and environments when it names any. */
export function wants(addon: Pick<AddonRow, 'events' | 'projects' | 'environments'>, event: Pick<DomainEvent, 'type' | 'project' | 'environment'>): boolean {
  const within = (list: readonly string[], value: string | null) => list.length === 0 || list.includes('*') || (value !== null && list.includes(value));
  return addon.events.includes(event.type) && within(addon.projects, event.project) && within(addon.environments, event.environment);
}

function requestFor(addon: AddonRow, event: DomainEvent) {
  const parameters = addon.parameters as { url: string; contentType?: string; authorization?: string; bodyTemplate?: string; customHeaders?: string };
  const headers: Record<string, string> = { 'content-type': parameters.contentType ?? 'application/json' };
  if (parameters.authorization) headers.authorization = parameters.authorization;
  if (parameters.customHeaders) {
    for (const [name, value] of Object.entries(JSON.parse(parameters.customHeaders) as Record<string, unknown>)) headers[name.toLowerCase()] = String(value);
  }
  const body = parameters.bodyTemplate ? renderTemplate(parameters.bodyTemplate, event) : JSON.stringify(payloadOf(event));
  return { url: parameters.url, headers, body };
}


/**
 * Sends one event to every enabled addon that wants it and records the outcome. An addon already tried for the
 * event (a redelivered message) is skipped. Failures are recorded, not retried: a dead endpoint never holds up
 * the stream.
 */
export async function deliverEvent(db: DatabasePool, event: DomainEvent, recordOutcome: (outcome: 'success' | 'failed' | 'timeout') => void = () => undefined): Promise<void> {
  // An addon hears of what happens after it was made, even when the stream is read late (or from its start);
  // a second of slack covers the clocks of the database and of the process that stamped the event.
  const addons = (await addonStore.listFor(db, event.type))
    .filter((addon) => wants(addon, event) && Date.parse(event.createdAt) >= Date.parse(addon.createdAt) - CLOCK_SLACK_MS);
  await Promise.all(addons.map(async (addon) => {
    if (await addonStore.wasDelivered(db, addon.id, event.uuid)) return;
    const request = requestFor(addon, event);
    let state: 'success' | 'failed';
    let details: string;
    try {
      const response = await fetch(request.url, { method: 'POST', headers: request.headers, body: request.body, signal: AbortSignal.timeout(TIMEOUT_MS) });
      await response.body?.cancel();
      state = response.ok ? 'success' : 'failed';
      details = response.ok ? `Webhook request was successful with status code: ${response.status}` : `Webhook request failed with status code: ${response.status}`;
    } catch (error) {
      state = 'failed';
      details = `Webhook request failed: ${(error as Error).message}`;
    }
    recordOutcome(state === 'success' ? 'success' : details.includes('timeout') || details.includes('aborted') ? 'timeout' : 'failed');
    await addonStore.recordDelivery(db, {
      addonId: addon.id,
      eventUuid: event.uuid,
      state,
      details,
      event: payloadOf(event) as object,
      request: { url: request.url, contentType: request.headers['content-type'] ?? null, body: request.body.slice(0, 10_000) },
    });
  }));
}
