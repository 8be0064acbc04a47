import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestStack, type TestStack } from '@bunting/test-stack';

let stack: TestStack;
const flag = '/api/admin/projects/default/features/linked';

beforeAll(async () => {
  stack = await startTestStack();
  await stack.admin.post('/api/admin/projects/default/features', { name: 'linked' });
});
afterAll(() => stack?.dispose());

const links = async () =>
  (await stack.admin.get(flag)).body.links as { id: string; url: string; title: string | null; feature: string }[];

describe('feature links', () => {
  it('are added, changed and removed with 204, read with the flag, each change recorded as feature-metadata-updated', async () => {
    expect(
      (await stack.admin.post(`${flag}/link`, { url: 'https://tickets.example.com/FLAG-1', title: 'Ticket' })).status,
    ).toBe(204);
    expect((await stack.admin.post(`${flag}/link`, { url: 'docs.example.com/linked' })).status).toBe(204);
    const [ticket, docs] = await links();
    expect(ticket).toMatchObject({ url: 'https://tickets.example.com/FLAG-1', title: 'Ticket', feature: 'linked' });
    // Without a scheme the address is taken as https, as Unleash's UI does.
    expect(docs).toMatchObject({ url: 'https://docs.example.com/linked', title: null });

    expect(
      (
        await stack.admin.put(`${flag}/link/${ticket!.id}`, {
          url: 'https://tickets.example.com/FLAG-2',
          title: 'Ticket 2',
        })
      ).status,
    ).toBe(204);
    expect((await stack.admin.delete(`${flag}/link/${docs!.id}`)).status).toBe(204);
    expect(await links()).toEqual([
      { id: ticket!.id, url: 'https://tickets.example.com/FLAG-2', title: 'Ticket 2', feature: 'linked' },
    ]);

    const events = await eventually(async () => {
      const { body } = await stack.admin.get('/api/admin/events/linked');
      const found = body.events.filter((event: { type: string }) => event.type === 'feature-metadata-updated');
      return found.length === 4 && found;
    });
    expect(events[0].data.links).toEqual([
      { id: ticket!.id, url: 'https://tickets.example.com/FLAG-2', title: 'Ticket 2' },
    ]);
    expect(events[0].preData.links).toHaveLength(2);
  });

  it('refuses addresses that are not http(s), unknown links and flags, and callers without the permission', async () => {
    const refused = await stack.admin.post(`${flag}/link`, { url: 'javascript:alert(1)' });
    expect(refused.status).toBe(400);
    expect(refused.body.name).toBe('ValidationError');
    expect((await stack.admin.put(`${flag}/link/no-such-link`, { url: 'https://example.com' })).status).toBe(404);
    expect(
      (await stack.admin.post('/api/admin/projects/default/features/no-such-flag/link', { url: 'https://example.com' }))
        .status,
    ).toBe(404);
    expect((await stack.anonymous.post(`${flag}/link`, { url: 'https://example.com' })).status).toBe(401);
    expect(await links()).toHaveLength(1);
  });
});
