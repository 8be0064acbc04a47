import type { FastifyRequest } from 'fastify';
import type { AccessAction, AccessMethod } from '@bunting/contracts';
import type { DatabasePool, Logger } from '@bunting/platform';
import { recordKeeping } from '../events/write-tx.ts';
import { accessHistoryStore } from './access-history-store.ts';

export type AccessNote = {
  method: AccessMethod;
  action: AccessAction;
  outcome: 'success' | 'failure';
  userId?: number | null;
  name?: string | null;
  detail?: string | null;
};

type Client = { address: string | null; userAgent: string | null };

export function clientOf(request: FastifyRequest): Client {
  const agent = request.headers['user-agent'];
  return { address: request.ip ?? null, userAgent: typeof agent === 'string' ? agent.slice(0, 500) : null };
}

/** Waiting deliverers hear of a new entry at once instead of at their next look. */
const listeners = new Set<() => void>();
export function onAccessRecorded(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Writes one entry of the sign-in history. It is a record of what was tried, not a change anyone made, so it is
 * written on its own (a refused sign-in has no transaction to join); a failure to write it is logged and does not
 * change the answer the person gets.
 */
export async function recordAccess(db: DatabasePool, log: Logger, client: Client, note: AccessNote): Promise<void> {
  try {
    await recordKeeping(db, (tx) =>
      accessHistoryStore.insert(tx, {
        userId: note.userId ?? null,
        name: note.name?.slice(0, 255) ?? null,
        method: note.method,
        action: note.action,
        outcome: note.outcome,
        detail: note.detail?.slice(0, 500) ?? null,
        address: client.address,
        userAgent: client.userAgent,
      }),
    );
    for (const listener of listeners) listener();
  } catch (error) {
    log.error({ err: error, access: note }, 'could not record an entry of the sign-in history');
  }
}
