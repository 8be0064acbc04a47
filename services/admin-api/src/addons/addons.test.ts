import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, httpClient, startTestStack, type TestStack } from '@bunting/test-stack';
import { wants } from './addon-delivery.ts';
import { renderTemplate } from './providers/webhook.ts';

let stack: TestStack;
let receiver: Server;
let receiverUrl: string;
const received: { path: string; headers: IncomingMessage['headers']; body: string; raw: Buffer }[] = [];
const clientToken = 'default:development.addons-client';

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
    });
    request.on('end', () => {
      const raw = Buffer.concat(chunks);
      received.push({ path: request.url ?? '', headers: request.headers, body: raw.toString('utf8'), raw });
      response.statusCode = request.url === '/broken' ? 500 : 200;
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  // Slack's Web API is stood in for by the receiver; links in messages point at the console's public address.
  stack = await startTestStack({
    env: {
      INIT_CLIENT_API_TOKENS: clientToken,
      SLACK_API_URL: `${receiverUrl}/slack-api`,
      UNLEASH_URL: 'https://flags.example.test',
    },
  });
  await stack.admin.post('/api/admin/projects', { id: 'shop', name: 'Shop' });
});
afterAll(async () => {
  await stack?.dispose();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe('webhook addons', () => {
  it('are created, listed with their secrets masked, updated and deleted, each change recorded', async () => {
    const created = await stack.admin.post('/api/admin/addons', {
      provider: 'webhook',
      description: 'to chat',
      enabled: true,
      events: ['feature-created'],
      projects: ['shop'],
      parameters: {
        url: `${receiverUrl}/hook`,
        authorization: 'Bearer secret-1',
        customHeaders: '{"X-Team":"payments"}',
      },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      id: expect.any(Number),
      provider: 'webhook',
      enabled: true,
      projects: ['shop'],
      environments: [],
      parameters: { url: `${receiverUrl}/hook`, authorization: '*****', customHeaders: '*****' },
    });
    const list = await stack.admin.get('/api/admin/addons');
    expect(list.body.providers.map((provider: { name: string }) => provider.name)).toContain('webhook');
    expect(list.body.addons).toHaveLength(1);

    // Sending the mask back keeps the stored secret.
    const updated = await stack.admin.put(`/api/admin/addons/${created.body.id}`, {
      ...created.body,
      description: 'to the team chat',
    });
    expect(updated.status).toBe(200);
    await stack.admin.post('/api/admin/projects/shop/features', { name: 'webhooked' });
    const delivery = await eventually(async () => received.find((request) => request.path === '/hook'));
    expect(delivery.headers.authorization).toBe('Bearer secret-1');
    expect(delivery.headers['x-team']).toBe('payments');
    expect(JSON.parse(delivery.body)).toMatchObject({
      type: 'feature-created',
      featureName: 'webhooked',
      project: 'shop',
      createdBy: 'admin',
    });

    const log = await eventually(async () => {
      const { body } = await stack.admin.get(`/api/admin/addons/${created.body.id}/events`);
      return body.integrationEvents.length > 0 && body.integrationEvents;
    });
    expect(log[0]).toMatchObject({
      integrationId: created.body.id,
      state: 'success',
      event: { type: 'feature-created' },
    });

    expect((await stack.admin.delete(`/api/admin/addons/${created.body.id}`)).status).toBe(200);
    expect((await stack.admin.get(`/api/admin/addons/${created.body.id}`)).status).toBe(404);
    const events = await eventually(async () => {
      const found = (await stack.admin.post('/api/admin/events/search', { query: 'addon-config' })).body.events.map(
        (event: { type: string }) => event.type,
      );
      return found.length === 3 && found;
    });
    expect(events).toEqual(['addon-config-deleted', 'addon-config-updated', 'addon-config-created']);
    expect(
      JSON.stringify((await stack.admin.post('/api/admin/events/search', { query: 'addon-config' })).body),
    ).not.toContain('secret-1');
  });

  it('send only the events asked for, render body templates and record failures', async () => {
    const templated = await stack.admin.post('/api/admin/addons', {
      provider: 'webhook',
      enabled: true,
      events: ['feature-environment-enabled'],
      environments: ['production'],
      parameters: {
        url: `${receiverUrl}/templated`,
        contentType: 'text/plain',
        bodyTemplate: '{{event.featureName}} on in {{event.environment}} by {{event.createdBy}}',
      },
    });
    const broken = await stack.admin.post('/api/admin/addons', {
      provider: 'webhook',
      enabled: true,
      events: ['feature-created'],
      parameters: { url: `${receiverUrl}/broken` },
    });
    await stack.admin.post('/api/admin/addons', {
      provider: 'webhook',
      enabled: false,
      events: ['feature-created'],
      parameters: { url: `${receiverUrl}/disabled` },
    });
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
      [{ provider: 'carrier-pigeon', enabled: true, events: [], parameters: {} }, 'provider'],
      [{ provider: 'webhook', enabled: true, events: [], parameters: { url: 'not a url' } }, 'parameters.url'],
      [{ provider: 'webhook', enabled: true, events: [], parameters: { url: 'ftp://example.com' } }, 'parameters.url'],
      [
        { provider: 'webhook', enabled: true, events: ['no-such-event'], parameters: { url: 'http://example.com' } },
        'events.0',
      ],
      [
        {
          provider: 'webhook',
          enabled: true,
          events: [],
          parameters: { url: 'http://example.com', customHeaders: '[1]' },
        },
        'parameters.customHeaders',
      ],
    ] as const) {
      const reply = await stack.admin.post('/api/admin/addons', body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.details[0].path).toBe(path);
    }
    expect((await httpClient(stack.url, { authorization: clientToken }).get('/api/admin/addons')).status).toBe(403);
    expect(
      (
        await stack.admin.put('/api/admin/addons/9999', {
          provider: 'webhook',
          enabled: true,
          events: [],
          parameters: { url: 'http://example.com' },
        })
      ).status,
    ).toBe(404);
  });
});

describe('the other integrations Unleash 8.2 offers, each against a stand-in for its service', () => {
  const until = (path: string, flag: string) =>
    eventually(async () => {
      const found = received.filter(
        (entry) =>
          entry.path === path &&
          (entry.headers['content-encoding'] === 'gzip' ? gunzipSync(entry.raw).toString() : entry.body).includes(flag),
      );
      return found.length > 0 ? found : undefined;
    });

  it("lists Unleash's seven providers, then Bunting's audit destinations, and masks each secret", async () => {
    const { body } = await stack.admin.get('/api/admin/addons');
    expect(body.providers.map((provider: { name: string }) => provider.name)).toEqual([
      'webhook',
      'slack',
      'slack-app',
      'teams',
      'teamsworkflow',
      'datadog',
      'new-relic',
      'splunk-hec',
      'datadog-logs',
      'syslog',
      'ocsf',
      'signed-webhook',
    ]);
    const datadog = await stack.admin.post('/api/admin/addons', {
      provider: 'datadog',
      enabled: false,
      events: ['feature-created'],
      parameters: { apiKey: 'dd-secret' },
    });
    expect(datadog.status).toBe(200);
    expect(datadog.body.parameters).toEqual({ apiKey: '*****' });
  });

  it("posts to Slack's incoming webhook once per channel: the flag's slack tags, else the default", async () => {
    await stack.admin.post('/api/admin/tag-types', { name: 'slack' });
    await stack.admin.post('/api/admin/addons', {
      provider: 'slack',
      enabled: true,
      events: ['feature-created'],
      parameters: { url: `${receiverUrl}/slack-hook`, defaultChannel: 'releases', username: 'flags' },
    });
    await stack.admin.post('/api/admin/projects/default/features', { name: 'slack-default' });
    const [plain] = await until('/slack-hook', 'slack-default');
    expect(JSON.parse(plain!.body)).toMatchObject({
      channel: '#releases',
      username: 'flags',
      text: expect.stringContaining(
        'created <https://flags.example.test/projects/default/features/slack-default|slack-default>',
      ),
      attachments: [
        { actions: [{ type: 'button', url: 'https://flags.example.test/projects/default/features/slack-default' }] },
      ],
    });
    await stack.admin.post('/api/admin/projects/default/features', {
      name: 'slack-tagged',
      tags: [
        { type: 'slack', value: 'checkout' },
        { type: 'slack', value: 'payments' },
      ],
    });
    const tagged = await eventually(async () => {
      const found = received.filter((entry) => entry.path === '/slack-hook' && entry.body.includes('slack-tagged'));
      return found.length === 2 ? found : undefined;
    });
    expect(tagged.map((entry) => JSON.parse(entry.body).channel).sort()).toEqual(['#checkout', '#payments']);
  });

  it("posts through the Slack app's bot token to chat.postMessage", async () => {
    await stack.admin.post('/api/admin/addons', {
      provider: 'slack-app',
      enabled: true,
      events: ['feature-archived'],
      parameters: { accessToken: 'xoxb-test', defaultChannels: 'ops, releases' },
    });
    await stack.admin.post('/api/admin/projects/default/features', { name: 'slack-app-flag' });
    await stack.admin.delete('/api/admin/projects/default/features/slack-app-flag');
    const posts = await eventually(async () => {
      const found = received.filter(
        (entry) => entry.path === '/slack-api/chat.postMessage' && entry.body.includes('slack-app-flag'),
      );
      return found.length === 2 ? found : undefined;
    });
    expect(posts[0]!.headers.authorization).toBe('Bearer xoxb-test');
    expect(posts.map((entry) => JSON.parse(entry.body).channel).sort()).toEqual(['ops', 'releases']);
    expect(JSON.parse(posts[0]!.body).blocks[0].text.text).toContain('archived');
  });

  it('posts a message card to Teams and an Adaptive Card to a Teams workflow', async () => {
    await stack.admin.post('/api/admin/addons', {
      provider: 'teams',
      enabled: true,
      events: ['feature-environment-enabled'],
      parameters: { url: `${receiverUrl}/teams` },
    });
    await stack.admin.post('/api/admin/addons', {
      provider: 'teamsworkflow',
      enabled: true,
      events: ['feature-environment-enabled'],
      parameters: { url: `${receiverUrl}/teams-flow`, customHeaders: '{"X-Flow":"1"}' },
    });
    await stack.admin.post('/api/admin/projects/default/features', { name: 'teams-flag' });
    await stack.admin.post('/api/admin/projects/default/features/teams-flag/environments/development/on');
    const [card] = await until('/teams', 'teams-flag');
    expect(JSON.parse(card!.body)).toMatchObject({
      '@type': 'MessageCard',
      sections: [{ facts: expect.arrayContaining([{ name: 'Action', value: 'feature-environment-enabled' }]) }],
      potentialAction: [{ '@type': 'OpenUri' }],
    });
    const [flow] = await until('/teams-flow', 'teams-flag');
    expect(flow!.headers['x-flow']).toBe('1');
    expect(JSON.parse(flow!.body)).toMatchObject({
      type: 'message',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          content: { type: 'AdaptiveCard', actions: [{ type: 'Action.OpenUrl' }] },
        },
      ],
    });
  });

  it("records changes as Datadog events and New Relic custom events (gzipped), with each service's key", async () => {
    await stack.admin.post('/api/admin/addons', {
      provider: 'datadog',
      enabled: true,
      events: ['feature-created'],
      parameters: { url: `${receiverUrl}/datadog`, apiKey: 'dd-key', sourceTypeName: 'flags' },
    });
    await stack.admin.post('/api/admin/addons', {
      provider: 'new-relic',
      enabled: true,
      events: ['feature-created'],
      parameters: { url: `${receiverUrl}/new-relic`, licenseKey: 'nr-key' },
    });
    await stack.admin.post('/api/admin/projects/default/features', {
      name: 'observed-flag',
      tags: [{ type: 'simple', value: 'checkout' }],
    });
    const [datadog] = await until('/datadog', 'observed-flag');
    expect(datadog!.headers['dd-api-key']).toBe('dd-key');
    expect(JSON.parse(datadog!.body)).toMatchObject({
      title: expect.any(String),
      text: expect.stringMatching(/^%%% /),
      tags: ['simple:checkout'],
      source_type_name: 'flags',
    });
    const [newRelic] = await until('/new-relic', 'observed-flag');
    expect(newRelic!.headers['api-key']).toBe('nr-key');
    expect(JSON.parse(gunzipSync(newRelic!.raw).toString())).toMatchObject({
      eventType: 'UnleashServiceEvent',
      unleashEventType: 'feature-created',
      featureName: 'observed-flag',
      createdAt: expect.any(Number),
    });
  });

  it("refuses each provider's missing or malformed parameters", async () => {
    for (const [body, path] of [
      [
        { provider: 'slack', enabled: true, events: [], parameters: { url: 'https://hooks.slack.test/x' } },
        'parameters.defaultChannel',
      ],
      [{ provider: 'slack-app', enabled: true, events: [], parameters: {} }, 'parameters.accessToken'],
      [{ provider: 'teams', enabled: true, events: [], parameters: { url: 'teams' } }, 'parameters.url'],
      [
        { provider: 'datadog', enabled: true, events: [], parameters: { url: 'https://api.datadoghq.test' } },
        'parameters.apiKey',
      ],
      [{ provider: 'new-relic', enabled: true, events: [], parameters: { licenseKey: 'x' } }, 'parameters.url'],
    ] as const) {
      const reply = await stack.admin.post('/api/admin/addons', body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.details[0].path).toBe(path);
    }
  });
});

describe('webhook addons and old events', () => {
  it('do not receive events from before they were made, however late the stream is read', async () => {
    const { randomUUID } = await import('node:crypto');
    await stack.admin.post('/api/admin/addons', {
      provider: 'webhook',
      enabled: true,
      events: ['tag-created'],
      parameters: { url: `${receiverUrl}/late` },
    });
    const { js, names } = stack.messaging;
    const publish = (createdAt: string, value: string) =>
      js.publish(
        names.eventSubject('tag-created'),
        JSON.stringify({
          uuid: randomUUID(),
          type: 'tag-created',
          createdAt,
          createdBy: 'test',
          createdByUserId: null,
          environment: null,
          project: null,
          featureName: null,
          data: { type: 'simple', value },
          preData: null,
          tags: [],
        }),
        { msgID: randomUUID() },
      );
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
    expect(wants({ ...addon, projects: ['*'] }, { type: 'feature-created', project: null, environment: null })).toBe(
      true,
    );
    const event = {
      uuid: '00000000-0000-4000-8000-000000000000',
      type: 'feature-created' as const,
      createdAt: 'now',
      createdBy: 'ann',
      createdByUserId: 1,
      environment: null,
      project: 'shop',
      featureName: 'f',
      data: { name: 'f', stale: false },
      preData: null,
      tags: [],
    };
    expect(renderTemplate('{{event.type}}/{{ event.data }}/{{event.missing}}/{{{event.createdBy}}}', event)).toBe(
      'feature-created/{"name":"f","stale":false}//ann',
    );
  });
});
