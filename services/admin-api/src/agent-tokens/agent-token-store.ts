import { randomBytes } from 'node:crypto';
import type { WriteTx } from '../events/write-tx.ts';
import { z } from 'zod';
import { AgentScope } from '@bunting/contracts';
import { sql, type Queryable } from '@bunting/platform';
import { hashSecret } from '../api-tokens/token-secret.ts';

export const AgentTokenRow = z.object({
  id: z.number(),
  userId: z.number(),
  userName: z.string(),
  clientId: z.string(),
  clientName: z.string(),
  scopes: z.array(AgentScope),
  resource: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  seenAt: z.string().nullable(),
});
export type AgentTokenRow = z.infer<typeof AgentTokenRow>;

const columns = sql.fragment`t.id, t.user_id as "userId", coalesce(u.username, u.email, u.name, 'user-' || u.id) as "userName",
  t.client_id as "clientId", t.client_name as "clientName", t.scopes, t.resource, t.created_at as "createdAt",
  t.expires_at as "expiresAt", t.seen_at as "seenAt"`;
const from = sql.fragment`admin.agent_tokens t join admin.users u on u.id = t.user_id`;

/** Agents' tokens read "agent:" and random hex, so a leaked one is recognised for what it is. */
export const newAgentSecret = () => `agent:${randomBytes(28).toString('hex')}`;

export const agentTokenStore = {
  /** Those still valid, newest first; all users' when userId is null. */
  list(db: Queryable, userId: number | null) {
    const who = userId === null ? sql.fragment`true` : sql.fragment`t.user_id = ${userId}`;
    return db.any(
      sql.type(AgentTokenRow)`select ${columns} from ${from} where ${who} and t.expires_at > now() order by t.id desc`,
    );
  },
  get(db: Queryable, id: number) {
    return db.maybeOne(sql.type(AgentTokenRow)`select ${columns} from ${from} where t.id = ${id}`);
  },
  findBySecret(db: Queryable, secret: string) {
    return db.maybeOne(
      sql.type(AgentTokenRow)`select ${columns} from ${from} where t.secret_hash = ${hashSecret(secret)}`,
    );
  },
  async insert(
    db: WriteTx,
    token: {
      userId: number;
      secret: string;
      clientId: string;
      clientName: string;
      scopes: AgentScope[];
      resource: string;
      expiresAt: string;
    },
  ) {
    const { id } = await db.one(sql.type(z.object({ id: z.number() }))`
      insert into admin.agent_tokens (user_id, client_id, client_name, scopes, resource, secret_hash, expires_at)
      values (${token.userId}, ${token.clientId}, ${token.clientName}, ${sql.array(token.scopes, 'text')}, ${token.resource},
        ${hashSecret(token.secret)}, ${token.expiresAt})
      returning id`);
    return (await agentTokenStore.get(db, id))!;
  },
  delete(db: WriteTx, id: number) {
    return db.query(sql.unsafe`delete from admin.agent_tokens where id = ${id}`);
  },
  /** A deactivated person's agents: their tokens end with the account's access. */
  deleteOf(db: WriteTx, userId: number) {
    return db.any(sql.type(z.object({ id: z.number(), clientName: z.string() }))`
      delete from admin.agent_tokens where user_id = ${userId} returning id, client_name as "clientName"`);
  },
  touchSeen(db: WriteTx, ids: number[]) {
    return db.query(
      sql.unsafe`update admin.agent_tokens set seen_at = now() where id = any(${sql.array(ids, 'int4')})`,
    );
  },
};
