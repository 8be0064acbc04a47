import { createHash, randomBytes } from 'node:crypto';
import type { SignalEndpoint } from '@bunting/contracts';
import { DomainError, NameExistsError, NotFoundError, type Queryable } from '@bunting/platform';
import type { SignalChange } from '../signal-changes.ts';
import type { SignalsConfig } from '../signals-config.ts';
import { endpointStore, type EndpointRow, type TokenRow } from './endpoint-store.ts';

export const hashToken = (secret: string) => createHash('sha256').update(secret).digest('hex');

async function withTokens(db: Queryable, rows: readonly EndpointRow[]): Promise<SignalEndpoint[]> {
  const tokens =
    rows.length > 0
      ? await endpointStore.tokens(
          db,
          rows.map((row) => row.id),
        )
      : [];
  return rows.map((row) => ({ ...row, tokens: tokens.filter((token) => token.signalEndpointId === row.id) }));
}

export async function requireEndpoint(db: Queryable, id: number): Promise<EndpointRow> {
  const row = await endpointStore.get(db, id);
  if (!row) throw new NotFoundError(`Could not find signal endpoint ${id}`);
  return row;
}

function limitReached(what: string, limit: number): DomainError {
  return new DomainError(
    409,
    'ExceedsLimitError',
    `The limit of ${limit} ${what} has been reached; raise it in the configuration of a self-hosted installation.`,
  );
}

export function createEndpointService(config: SignalsConfig) {
  return {
    async list(db: Queryable) {
      return { signalEndpoints: await withTokens(db, await endpointStore.list(db)) };
    },

    async get(db: Queryable, id: number) {
      return (await withTokens(db, [await requireEndpoint(db, id)]))[0]!;
    },

    async create(
      { tx, actor, emit }: SignalChange,
      input: { name: string; description?: string | null | undefined; enabled?: boolean | undefined },
    ) {
      await endpointStore.lockForCreation(tx);
      if (await endpointStore.byName(tx, input.name))
        throw new NameExistsError(`A signal endpoint named ${input.name} already exists`);
      if ((await endpointStore.count(tx)) >= config.maxEndpoints)
        throw limitReached('signal endpoints', config.maxEndpoints);
      const row = await endpointStore.insert(tx, {
        name: input.name,
        description: input.description ?? null,
        enabled: input.enabled ?? true,
        createdByUserId: actor.createdByUserId,
      });
      emit({ type: 'signal-endpoint-created', data: row });
      return { ...row, tokens: [] as TokenRow[] };
    },

    async update(
      { tx, emit }: SignalChange,
      id: number,
      input: { name?: string | undefined; description?: string | null | undefined; enabled?: boolean | undefined },
    ) {
      const before = await requireEndpoint(tx, id);
      if (input.name && input.name !== before.name && (await endpointStore.byName(tx, input.name))) {
        throw new NameExistsError(`A signal endpoint named ${input.name} already exists`);
      }
      const after = await endpointStore.update(tx, id, {
        name: input.name ?? before.name,
        description: input.description === undefined ? before.description : input.description,
        enabled: input.enabled ?? before.enabled,
      });
      if (JSON.stringify(after) !== JSON.stringify(before))
        emit({ type: 'signal-endpoint-updated', data: after, preData: before });
      return after;
    },

    async delete({ tx, emit }: SignalChange, id: number) {
      const before = await requireEndpoint(tx, id);
      await endpointStore.delete(tx, id);
      emit({ type: 'signal-endpoint-deleted', preData: before });
    },

    /** The token's secret is in this answer only; the database keeps its hash. */
    async createToken({ tx, actor, emit }: SignalChange, endpointId: number, name: string) {
      await requireEndpoint(tx, endpointId);
      await endpointStore.lock(tx, endpointId);
      const count = (await endpointStore.tokens(tx, [endpointId])).length;
      if (count >= config.maxTokensPerEndpoint)
        throw limitReached('tokens for this signal endpoint', config.maxTokensPerEndpoint);
      const secret = randomBytes(28).toString('hex');
      const row = await endpointStore.insertToken(tx, {
        endpointId,
        name,
        secretHash: hashToken(secret),
        createdByUserId: actor.createdByUserId,
      });
      emit({ type: 'signal-endpoint-token-created', data: row });
      return { ...row, token: secret };
    },

    async renameToken({ tx, emit }: SignalChange, endpointId: number, id: number, name: string) {
      const before = await endpointStore.token(tx, endpointId, id);
      if (!before) throw new NotFoundError(`Could not find token ${id} of signal endpoint ${endpointId}`);
      const after = await endpointStore.renameToken(tx, id, name);
      emit({ type: 'signal-endpoint-token-updated', data: after, preData: before });
      return after;
    },

    async deleteToken({ tx, emit }: SignalChange, endpointId: number, id: number) {
      const before = await endpointStore.token(tx, endpointId, id);
      if (!before) throw new NotFoundError(`Could not find token ${id} of signal endpoint ${endpointId}`);
      await endpointStore.deleteToken(tx, id);
      emit({ type: 'signal-endpoint-token-deleted', preData: before });
    },
  };
}
