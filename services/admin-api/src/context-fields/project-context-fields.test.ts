import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually, startTestStack, type TestStack } from '@bunting/test-stack';

let stack: TestStack;
const shop = '/api/admin/projects/shop/context';

beforeAll(async () => {
  stack = await startTestStack();
  await stack.admin.post('/api/admin/projects', { id: 'shop', name: 'Shop' });
  await stack.admin.post('/api/admin/projects', { id: 'blog', name: 'Blog' });
});
afterAll(() => stack?.dispose());

it('keeps project context fields to their project, alongside the instance-wide ones', async () => {
  const created = await stack.admin.post(shop, {
    name: 'cartSize',
    description: 'items in the cart',
    legalValues: [{ value: 'small' }],
  });
  expect(created.status).toBe(201);
  expect(created.headers.get('location')).toBe('/api/admin/projects/shop/context/cartSize');
  expect(created.body).toMatchObject({ name: 'cartSize', project: 'shop' });

  expect((await stack.admin.get(shop)).body.map((field: { name: string }) => field.name)).toEqual(['cartSize']);
  expect((await stack.admin.get('/api/admin/projects/blog/context')).body).toEqual([]);
  // With the instance-wide fields, as Unleash's strategy form asks: the project's own and every root field, no other project's.
  const withRoot = (await stack.admin.get(`${shop}?include=root`)).body.map((field: { name: string }) => field.name);
  expect(withRoot).toEqual(expect.arrayContaining(['cartSize', 'userId', 'appName']));
  expect(
    (await stack.admin.get('/api/admin/projects/blog/context?include=root')).body.map(
      (field: { name: string }) => field.name,
    ),
  ).not.toContain('cartSize');
  expect((await stack.admin.get('/api/admin/context')).body.map((field: { name: string }) => field.name)).toContain(
    'cartSize',
  );
  expect((await stack.admin.get('/api/admin/projects/blog/context/cartSize')).status).toBe(404);
  expect((await stack.admin.get('/api/admin/projects/shop/context/userId')).status).toBe(404);

  expect((await stack.admin.post(`${shop}/cartSize/legal-values`, { value: 'large' })).status).toBe(200);
  expect((await stack.admin.put(`${shop}/cartSize`, { description: 'how full the cart is' })).status).toBe(200);
  const field = (await stack.admin.get(`${shop}/cartSize`)).body;
  expect(field).toMatchObject({
    description: 'how full the cart is',
    legalValues: [{ value: 'small' }, { value: 'large' }],
  });
  expect((await stack.admin.put('/api/admin/projects/blog/context/cartSize', { description: 'x' })).status).toBe(404);
  expect((await stack.admin.post(`${shop}/validate`, { name: 'cartSize' })).status).toBe(409);
  expect((await stack.admin.get(`${shop}/cartSize/strategies`)).body).toEqual({ strategies: [] });
  expect((await stack.admin.get('/api/admin/projects/nope/context')).status).toBe(404);

  expect((await stack.admin.delete('/api/admin/projects/blog/context/cartSize')).status).toBe(404);
  expect((await stack.admin.delete(`${shop}/cartSize`)).status).toBe(200);
  const events = await eventually(async () => {
    const found = (await stack.admin.post('/api/admin/events/search', { project: 'shop' })).body.events.map(
      (event: { type: string }) => event.type,
    );
    return found.includes('context-field-deleted') && found;
  });
  expect(events).toEqual(
    expect.arrayContaining(['context-field-created', 'context-field-updated', 'context-field-deleted']),
  );
});
