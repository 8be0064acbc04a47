import { randomBytes } from 'node:crypto';
import { eventually, type HttpClient } from './http-client.ts';

/**
 * Writes a marker event (a new tag type) and waits until the event log shows it. Events are stored in the order they
 * were written, so the total then counts everything written before the marker: a test that expects nothing to have
 * happened compares two markers' totals instead of waiting a fixed time.
 */
export async function eventLogTotalAfterMarker(admin: HttpClient): Promise<number> {
  const name = `marker-${randomBytes(4).toString('hex')}`;
  const created = await admin.post('/api/admin/tag-types', { name });
  if (created.status !== 201) throw new Error(`could not write the marker event: ${created.status} ${created.text}`);
  return eventually(
    async () => {
      const found = await admin.post('/api/admin/events/search', { type: 'tag-type-created', query: name });
      if (!found.body.events?.length) return false;
      return (await admin.get('/api/admin/events')).body.totalEvents as number;
    },
    { timeoutMs: 15_000 },
  );
}
