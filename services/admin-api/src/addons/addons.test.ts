import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, httpClient, startTestStack, type TestStack } from '@bunting/test-stack';
import { renderTemplate, wants } from './webhook-delivery.ts';

let stack: TestStack;
let receiver: Server;
let receiverUrl: string;
const received: { path: string; headers: IncomingMessage['headers']; body: string }[] = [];
const clientToken = 'default:development.addons-client';

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => { body += chunk; });
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body });
      response.statusCode = request.url === '/broken' ? 500 : 200;
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  stack = await startTestStack({ env: { INIT_CLIENT_API_TOKENS: clientToken } });
  await stack.admin.post('/api/admin/projects', { id: 'shop', name: 'Shop' });
});
afterAll(async () => {
  await stack?.dispose();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe('webhook addons', () => {
  it('are created, listed with their secrets masked, updated and deleted, each change recorded', async () => {
    const created = await stack.admin.post('/api/admin/addons', {
      provider: 'webhook', description: 'to chat', enabled: true, events: ['feature-created'], projects: ['shop'],
      parameters: { url: `${receiverUrl}/hook`, authorization: 'Bearer secret-1', customHeaders: '{"X-Team":"payments"}' },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ id: expect.any(Number), provider: 'webhook', enabled: true, projects: ['shop'], environments: [],
      parameters: { url: `${receiverUrl}/hook`, authorization: '*****', customHeaders: '*****' } });
    const list = await stack.admin.get('/api/admin/addons');
    expect(list.body.providers.map((provider: { name: string }) => provider.name)).toEqual(['webhook']);
    expect(list.body.addons).toHaveLength(1);

    // Sending the mask back keeps the stored secret.
    const updated = await stack.admin.put(`/api/admin/addons/${created.body.id}`, { ...created.body, description: 'to the team chat' });
    expect(updated.status).toBe(200);
    await stack.admin.post('/api/admin/projects/shop/features', { name: 'webhooked' });
    const delivery = await eventually(async () => received.find((request) => request.path === '/hook'));
    expect(delivery.headers.authorization).toBe('Bearer secret-1');
    expect(delivery.headers['x-team']).toBe('payments');
    expect(JSON.parse(delivery.body)).toMatchObject({ type: 'feature-created', featureName: 'webhooked', project: 'shop', createdBy: 'admin' });

    const log = await eventually(async () => {
      const { body } = await stack.admin.get(`/api/admin/addons/${created.body.id}/events`);
      return body.integrationEvents.length > 0 && body.integrationEvents;
    });
    expect(log[0]).toMatchObject({ integrationId: created.body.id, state: 'success', event: { type: 'feature-created' } });

    expect((await stack.admin.delete(`/api/admin/addons/${created.body.id}`)).status).toBe(200);
    expect((await stack.admin.get(`/api/admin/addons/${created.body.id}`)).status).toBe(404);
    const events = await eventually(async () => {
      const found = (await stack.admin.post('/api/admin/events/search', { query: 'addon-config' })).body.events.map((event: { type: string }) => event.type);
      return found.length === 3 && found;
    });
    expect(events).toEqual(['addon-config-deleted', 'addon-config-updated', 'addon-config-created']);
    expect(JSON.stringify((await stack.admin.post('/api/admin/events/search', { query: 'addon-config' })).body)).not.toContain('secret-1');
  });

  it('send only the events asked for, render body templates and record failures', async () => {
    const templated = await stack.admin.post('/api/admin/addons', {
      provider: 'webhook', enabled: true, events: ['feature-environment-enabled'], environments: ['production'],
      parameters: { url: `${receiverUrl}/templated`, contentType: 'text/plain', bodyTemplate: '{{event.featureName}} on in {{event.environment}} by {{event.createdBy}}' },
    });
    const broken = await stack.admin.post('/api/admin/addons', { provider: 'webhook', enabled: true, events: ['feature-created'], parameters: { url: `${receiverUrl}/broken` } });
    await stack.admin.post('/api/admin/addons', { provider: 'webhook', enabled: false, events: ['feature-created'], parameters: { url: `${receiverUrl}/disabled` } });
    await stack.admin.post('/api/admin/projects/default/features', { name: 'templated-flag' });
    await stack.admin.post('/api/admin/projects/default/features/templated-flag/environments/development/on');
    await stack.admin.post('/api/admin/projects/default/features/templated-flag/environments/production/on');
    const request = await eventually(async () => received.find((entry) => entry.path === '/templated'));
    expect(request.body).toBe('templated-flag on in production by admin');
    expect(request.headers['content-type']).toBe('text/plain');
    expect(received.filter((entry) => entry.path === '/templated')).toHaveLength(1);
    const failures = await eventually(async () => {
      const { body } = await stack.admin.get(`/api/admin/addons/${broken.body.id}/events`);
      return body.integrationEvents.length > 0 && body.integrationEvents;
    });
    expect(failures[0]).toMatchObject({ state: 'failed', stateDetails: expect.stringContaining('500') });
    expect(received.some((entry) => entry.path === '/disabled')).toBe(false);
    expect(templated.status).toBe(200);
  });

  it('refuse bad configurations and callers without ADMIN', async () => {
    for (const [body, path] of [
      [{ provider: 'slack', enabled: true, events: [], parameters: {} }, 'provider'],
      [{ provider: 'webhook', enabled: true, events: [], parameters: { url: 'not a url' } }, 'parameters.url'],
      [{ provider: 'webhook', enabled: true, events: [], parameters: { url: 'ftp://example.com' } }, 'parameters.url'],
      [{ provider: 'webhook', enabled: true, events: ['no-such-event'], parameters: { url: 'http://example.com' } }, 'events.0'],
      [{ provider: 'webhook', enabled: true, events: [], parameters: { url: 'http://example.com', customHeaders: '[1]' } }, 'parameters.customHeaders'],
    ] as const) {
      const reply = await stack.admin.post('/api/admin/addons', body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.details[0].path).toBe(path);
    }
    expect((await httpClient(stack.url, { authorization: clientToken }).get('/api/admin/addons')).status).toBe(403);
    expect((await stack.admin.put('/api/admin/addons/9999', { provider: 'webhook', enabled: true, events: [], parameters: { url: 'http://example.com' } })).status).toBe(404);
  });
});

describe('webhook addons and old events', () => {
  it('do not receive events from before they were made, however late the stream is read', async () => {
    const { randomUUID } = await import('node:crypto');
    await stack.admin.post('/api/admin/addons', { provider: 'webhook', enabled: true, events: ['tag-created'], parameters: { url: `${receiverUrl}/late` } });
    const { js, names } = stack.messaging;
    const publish = (createdAt: string, value: string) => js.publish(names.eventSubject('tag-created'), JSON.stringify({
      uuid: randomUUID(), type: 'tag-created', createdAt, createdBy: 'test', createdByUserId: null, environment: null, project: null,
      featureName: null, data: { type: 'simple', value }, preData: null, tags: [],
    }), { msgID: randomUUID() });
    await publish(new Date(Date.now() - 3_600_000).toISOString(), 'from-before');
    await publish(new Date().toISOString(), 'from-after');
    // Events are handled one at a time in stream order: when the later one has been delivered, the older one has been
    // handled (and a delivery of it would already be recorded).
    await eventually(async () => received.some((entry) => entry.path === '/late'));
    const late = received.filter((entry) => entry.path === '/late');
    expect(late.map((entry) => JSON.parse(entry.body).data.value)).toEqual(['from-after']);
  });
});

describe('delivery rules', () => {
  it('match type, projects and environments, and fill templates from the event', () => {
    const addon = { events: ['feature-created' as const], projects: ['shop'], environments: [] };
    expect(wants(addon, { type: 'feature-created', project: 'shop', environment: null })).toBe(true);
    expect(wants(addon, { type: 'feature-created', project: 'blog', environment: null })).toBe(false);
    expect(wants(addon, { type: 'feature-updated', project: 'shop', environment: null })).toBe(false);
    expect(wants({ ...addon, projects: ['*'] }, { type: 'feature-created', project: null, environment: null })).toBe(true);
    const event = { uuid: '00000000-0000-4000-8000-000000000000', type: 'feature-created' as const, createdAt: 'now', createdBy: 'ann', createdByUserId: 1,
      environment: null, project: 'shop', featureName: 'f', data: { name: 'f', stale: false }, preData: null, tags: [] };
    expect(renderTemplate('{{event.type}}/{{ event.data }}/{{event.missing}}/{{{event.createdBy}}}', event)).toBe('feature-created/{"name":"f","stale":false}//ann');
  });
});
