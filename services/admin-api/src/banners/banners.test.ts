import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually, loginAs, startTestStack, type TestStack } from '@bunting/test-stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack?.dispose());

it('creates, updates, switches, lists and deletes banners with their events; only admins change them', async () => {
  const { admin } = stack;
  const created = await admin.post('/api/admin/banners', {
    message: 'Maintenance on **Friday**',
    variant: 'warning',
    link: 'dialog',
    dialog: '## Details',
  });
  expect(created.status).toBe(201);
  expect(created.headers.get('location')).toBe(`/api/admin/banners/${created.body.id}`);
  expect(created.body).toEqual({
    id: expect.any(Number),
    message: 'Maintenance on **Friday**',
    enabled: true,
    variant: 'warning',
    sticky: false,
    icon: null,
    link: 'dialog',
    linkText: null,
    dialogTitle: null,
    dialog: '## Details',
    createdAt: expect.any(String),
  });
  const id = created.body.id;
  expect(
    (await admin.put(`/api/admin/banners/${id}`, { message: 'Maintenance moved to Monday', sticky: true })).body,
  ).toMatchObject({ message: 'Maintenance moved to Monday', sticky: true, variant: 'info', link: null });
  expect((await admin.post(`/api/admin/banners/${id}/off`)).body.enabled).toBe(false);
  expect((await admin.post(`/api/admin/banners/${id}/on`)).body.enabled).toBe(true);

  await admin.post('/api/admin/user-admin', { username: 'viv', password: 'a-long-password', rootRole: 'Viewer' });
  const viewer = await loginAs(stack.url, 'viv', 'a-long-password');
  expect((await viewer.get('/api/admin/banners')).body.banners.map((banner: { id: number }) => banner.id)).toEqual([
    id,
  ]);
  expect((await viewer.post('/api/admin/banners', { message: 'mine' })).status).toBe(403);
  expect((await viewer.post(`/api/admin/banners/${id}/off`)).status).toBe(403);
  expect((await admin.post('/api/admin/banners', { message: '' })).status).toBe(400);
  expect((await admin.post('/api/admin/banners', { message: 'x', variant: 'purple' })).status).toBe(400);
  expect((await admin.put('/api/admin/banners/999', { message: 'x' })).status).toBe(404);

  expect((await admin.delete(`/api/admin/banners/${id}`)).status).toBe(200);
  expect((await admin.get('/api/admin/banners')).body.banners).toEqual([]);
  const types = await eventually(async () => {
    const { body } = await admin.post('/api/admin/events/search', { type: undefined, limit: 100 });
    const banners = (body.events as { type: string }[])
      .map((event) => event.type)
      .filter((type) => type.startsWith('banner'));
    return banners.length >= 5 && banners.reverse();
  });
  expect(types).toEqual(['banner-created', 'banner-updated', 'banner-updated', 'banner-updated', 'banner-deleted']);
});
