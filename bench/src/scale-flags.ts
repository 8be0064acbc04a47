import { rolloutExport, type HttpClient } from '@bunting/test-stack';

/** Imports the flags scale-`from` up to (not including) scale-`to` into the default project, 2,000 at a time. */
export async function importScaleFlags(
  admin: HttpClient,
  from: number,
  to: number,
  environment = 'development',
): Promise<void> {
  for (let start = from; start < to; start += 2000) {
    const names = Array.from({ length: Math.min(2000, to - start) }, (_, offset) => `scale-${start + offset}`);
    const reply = await admin.post('/api/admin/features-batch/import', {
      project: 'default',
      environment,
      data: rolloutExport(names, 'default'),
    });
    if (reply.status !== 200) throw new Error(`import: ${reply.status} ${reply.text}`);
  }
}

/**
 * A user inside scale-0's 50 % rollout, as `frontend` (a frontend token's client) answers now: without one, half the
 * answers say off while the flag is on, and a toggle off looks seen at once.
 */
export async function userInsideScale0(frontend: HttpClient): Promise<string> {
  for (let user = 0; user < 1000; user += 1) {
    if ((await frontend.get(`/api/frontend/features/scale-0?userId=u-${user}`)).status === 200) return `u-${user}`;
  }
  throw new Error('scale-0 is on for none of 1,000 users');
}

/** Polls (every 2 ms) until scale-0's answer for `user` is `enabled`. */
export async function scale0Answers(frontend: HttpClient, user: string, enabled: boolean): Promise<void> {
  while (((await frontend.get(`/api/frontend/features/scale-0?userId=${user}`)).status === 200) !== enabled)
    await new Promise((resolve) => setTimeout(resolve, 2));
}
