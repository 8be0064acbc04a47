import { z } from 'zod';
import { StoredSignal } from '@bunting/contracts';
import { sql, type Queryable } from '@bunting/platform';

const SignalRow = StoredSignal;

/** Signals received at endpoints: the newest of each endpoint are kept. */
export const signalStore = {
  insert(tx: Queryable, signal: { endpointId: number; tokenId: number; tokenName: string; payload: unknown }) {
    return tx.one(sql.type(z.object({ id: z.number(), createdAt: z.string() }))`
      insert into signals.signals (endpoint_id, token_id, token_name, payload)
      values (${signal.endpointId}, ${signal.tokenId}, ${signal.tokenName}, ${signal.payload === null ? null : sql.jsonb(signal.payload as object)})
      returning id, created_at as "createdAt"`);
  },

  /** Drops an endpoint's signals beyond the newest `kept`. */
  async keepNewest(tx: Queryable, endpointId: number, kept: number) {
    await tx.query(sql.unsafe`
      delete from signals.signals where endpoint_id = ${endpointId} and id <= (
        select id from signals.signals where endpoint_id = ${endpointId} order by id desc offset ${kept} limit 1)`);
  },

  /** The newest signals, of one endpoint or of all. */
  recent(db: Queryable, endpointId: number | null, limit: number) {
    return db.any(sql.type(
      SignalRow,
    )`select id, 'signal-endpoint' as source, endpoint_id as "sourceId", token_name as "tokenName",
      payload, created_at as "createdAt" from signals.signals
      ${endpointId !== null ? sql.fragment`where endpoint_id = ${endpointId}` : sql.fragment``} order by id desc limit ${limit}`);
  },
};
