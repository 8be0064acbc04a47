import { answer, type BuntingClient } from '@bunting/api-client';

const DAY_MS = 86_400_000;

/**
 * Potentially stale, as Unleash judges it: older than its type's expected lifetime (types without one never are).
 * The rule's inputs come from the API: each flag type's lifetime, and the flag's creation time.
 */
export async function potentiallyStaleTest(api: BuntingClient, now = Date.now()) {
  const { types } = await answer(api.GET('/api/admin/feature-types'));
  const lifetimes = new Map(types.map((type) => [type.id, type.lifetimeDays]));
  return (flag: { type: string; createdAt: string | null }) => {
    const days = lifetimes.get(flag.type);
    if (!days || flag.createdAt === null) return false;
    return Date.parse(flag.createdAt) + days * DAY_MS < now;
  };
}
