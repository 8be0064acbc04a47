import { z } from 'zod';
import { SignalEndpoint, SignalEndpointToken } from '@bunting/contracts';
import { sql, type Queryable } from '@bunting/platform';

export const EndpointRow = SignalEndpoint.omit({ tokens: true });
export type EndpointRow = z.infer<typeof EndpointRow>;
export const TokenRow = SignalEndpointToken;
export type TokenRow = z.infer<typeof TokenRow>;

const endpointColumns = sql.fragment`id, name, description, enabled, created_at as "createdAt", created_by_user_id as "createdByUserId"`;
const tokenColumns = sql.fragment`id, name, endpoint_id as "signalEndpointId", created_at as "createdAt", created_by_user_id as "createdByUserId"`;

export const endpointStore = {
  /** Serialises creations, so two concurrent requests cannot both take the last place. */
  async lockForCreation(tx: Queryable) {
    await tx.query(sql.unsafe`lock table signals.signal_endpoints in share row exclusive mode`);
  },
  /** Serialises changes to one endpoint's tokens. */
  async lock(tx: Queryable, id: number) {
    await tx.query(sql.unsafe`select 1 from signals.signal_endpoints where id = ${id} for update`);
  },
  list(db: Queryable) {
    return db.any(sql.type(EndpointRow)`select ${endpointColumns} from signals.signal_endpoints order by id`);
  },
  get(db: Queryable, id: number) {
    return db.maybeOne(sql.type(EndpointRow)`select ${endpointColumns} from signals.signal_endpoints where id = ${id}`);
  },
  byName(db: Queryable, name: string) {
    return db.maybeOne(
      sql.type(EndpointRow)`select ${endpointColumns} from signals.signal_endpoints where name = ${name}`,
    );
  },
  count(db: Queryable) {
    return db.oneFirst(
      sql.type(z.object({ count: z.number() }))`select count(*)::int as count from signals.signal_endpoints`,
    );
  },
  insert(
    db: Queryable,
    endpoint: { name: string; description: string | null; enabled: boolean; createdByUserId: number | null },
  ) {
    return db.one(sql.type(
      EndpointRow,
    )`insert into signals.signal_endpoints (name, description, enabled, created_by_user_id)
      values (${endpoint.name}, ${endpoint.description}, ${endpoint.enabled}, ${endpoint.createdByUserId}) returning ${endpointColumns}`);
  },
  update(db: Queryable, id: number, endpoint: { name: string; description: string | null; enabled: boolean }) {
    return db.one(sql.type(
      EndpointRow,
    )`update signals.signal_endpoints set name = ${endpoint.name}, description = ${endpoint.description},
      enabled = ${endpoint.enabled} where id = ${id} returning ${endpointColumns}`);
  },
  delete(db: Queryable, id: number) {
    return db.query(sql.unsafe`delete from signals.signal_endpoints where id = ${id}`);
  },
  tokens(db: Queryable, endpointIds: readonly number[]) {
    return db.any(sql.type(TokenRow)`select ${tokenColumns} from signals.signal_endpoint_tokens
      where endpoint_id = any(${sql.array(endpointIds, 'int4')}) order by id`);
  },
  token(db: Queryable, endpointId: number, id: number) {
    return db.maybeOne(
      sql.type(
        TokenRow,
      )`select ${tokenColumns} from signals.signal_endpoint_tokens where endpoint_id = ${endpointId} and id = ${id}`,
    );
  },
  tokenByHash(db: Queryable, endpointId: number, secretHash: string) {
    return db.maybeOne(sql.type(TokenRow)`select ${tokenColumns} from signals.signal_endpoint_tokens
      where endpoint_id = ${endpointId} and secret_hash = ${secretHash}`);
  },
  insertToken(
    db: Queryable,
    token: { endpointId: number; name: string; secretHash: string; createdByUserId: number | null },
  ) {
    return db.one(sql.type(
      TokenRow,
    )`insert into signals.signal_endpoint_tokens (endpoint_id, name, secret_hash, created_by_user_id)
      values (${token.endpointId}, ${token.name}, ${token.secretHash}, ${token.createdByUserId}) returning ${tokenColumns}`);
  },
  renameToken(db: Queryable, id: number, name: string) {
    return db.one(
      sql.type(
        TokenRow,
      )`update signals.signal_endpoint_tokens set name = ${name} where id = ${id} returning ${tokenColumns}`,
    );
  },
  deleteToken(db: Queryable, id: number) {
    return db.query(sql.unsafe`delete from signals.signal_endpoint_tokens where id = ${id}`);
  },
};
