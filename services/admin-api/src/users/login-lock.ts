import type { Redis } from '@bunting/platform';

/**
 * Where the failed sign-ins of one user are counted (Redis, so every replica sees them): the password sign-in
 * locks on it, and an admin unlocks by removing it.
 */
export const userLockKey = (namespace: string, userId: number) => `${namespace}:login-failures:user:${userId}`;

export async function unlockUser(redis: Redis, namespace: string, userId: number): Promise<void> {
  await redis.del(userLockKey(namespace, userId));
}
