import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from '@bunting/platform';
import { eventually, startSmtpPeer, startTestStack, type SmtpPeer, type TestStack } from '@bunting/test-stack';

/**
 * Reminders of flags that are stale or look safe to remove, on a schedule (here every 300 ms, with a period of a
 * week): each flag once per period, to the integrations (a webhook subscribed to feature-potentially-stale-on) and by
 * e-mail to the project's owners.
 */
let stack: TestStack;
let smtp: SmtpPeer;
let receiver: Server;
const hooks: { featureName: string; data: { reason: string; reminder?: boolean } }[] = [];
const features = '/api/admin/projects/shop/features';

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      hooks.push(JSON.parse(body));
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  smtp = await startSmtpPeer();
  stack = await startTestStack({
    env: {
      CLEANUP_NOTICE_CHECK_MS: '300',
      CLEANUP_NOTICE_UNUSED_DAYS: '30',
      CLEANUP_NOTICE_PERIOD_DAYS: '7',
      EMAIL_HOST: '127.0.0.1',
      EMAIL_PORT: String(smtp.port),
      EMAIL_SENDER: 'Flags <flags@example.com>',
      EMAIL_RETRY_BASE_MS: '500',
    },
  });
  await stack.admin.post('/api/admin/projects', { id: 'shop', name: 'Shop' });
  const owner = await stack.admin.post('/api/admin/user-admin', {
    username: 'owner-olga',
    name: 'Olga',
    email: 'olga@example.com',
    rootRole: 'Editor',
    sendEmail: false,
  });
  const roles = (await stack.admin.get('/api/admin/roles')).body.roles as { id: number; name: string }[];
  const ownerRole = roles.find((role) => role.name === 'Owner')!.id;
  expect(
    (
      await stack.admin.put('/api/admin/projects/shop/access', {
        roles: [{ id: ownerRole, users: [owner.body.id], groups: [] }],
      })
    ).status,
  ).toBeLessThan(300);
  expect(
    (
      await stack.admin.post('/api/admin/addons', {
        provider: 'webhook',
        enabled: true,
        events: ['feature-potentially-stale-on'],
        parameters: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook` },
      })
    ).status,
  ).toBe(200);
}, 120_000);
afterAll(async () => {
  await stack?.dispose();
  await smtp?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

const remindersOf = (flag: string) => hooks.filter((hook) => hook.featureName === flag && hook.data?.reminder);

it('reminds of each stale or removable flag once per period, by webhook and by e-mail to the owners', async () => {
  for (const name of ['shop-done', 'shop-stale', 'shop-active']) await stack.admin.post(features, { name });
  await stack.admin.post(`${features}/shop-done/lifecycle/complete`, { status: 'discarded' });
  // Forty days pass for the completed flag, which no code uses and no SDK evaluates.
  await stack.db.query(
    sql.unsafe`update admin.features set created_at = now() - interval '40 days' where name = 'shop-done'`,
  );
  await stack.admin.patch(`${features}/shop-stale`, [{ op: 'replace', path: '/stale', value: true }]);

  await eventually(async () => remindersOf('shop-done').length > 0 && remindersOf('shop-stale').length > 0, {
    timeoutMs: 15_000,
  });
  expect(remindersOf('shop-done')[0]!.data.reason).toBe(
    'looks safe to remove: no code references, not evaluated for 30 days, completed (discarded)',
  );
  expect(remindersOf('shop-stale')[0]!.data.reason).toBe('marked stale');
  const cleanupMail = () => smtp.to('olga@example.com').filter((item) => /to clean up/.test(item.subject ?? ''));
  const mentions = (flag: string) => cleanupMail().filter((item) => (item.text ?? '').includes(`- ${flag}: `)).length;
  await eventually(async () => mentions('shop-done') > 0 && mentions('shop-stale') > 0);
  expect(cleanupMail()[0]!.text).toContain('Remove what is left of them in code, then archive them.');

  // A flag going stale later is reminded of on a later run; by then the first two have not been again.
  await stack.admin.patch(`${features}/shop-active`, [{ op: 'replace', path: '/stale', value: true }]);
  await eventually(async () => remindersOf('shop-active').length > 0, { timeoutMs: 15_000 });
  expect(remindersOf('shop-done')).toHaveLength(1);
  expect(remindersOf('shop-stale')).toHaveLength(1);
  await eventually(async () => mentions('shop-active') > 0);
  expect([mentions('shop-done'), mentions('shop-stale'), mentions('shop-active')]).toEqual([1, 1, 1]);
});
