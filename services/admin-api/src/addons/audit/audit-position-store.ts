import { z } from 'zod';
import { sql, type Queryable } from '@bunting/platform';
import type { WriteTx } from '../../events/write-tx.ts';

export const AuditPosition = z.object({
  addonId: z.number(),
  streamCreated: z.string(),
  position: z.number(),
  accessPosition: z.number(),
  generation: z.number(),
  holder: z.string().nullable(),
  delivered: z.number(),
  failures: z.number(),
  missed: z.number(),
  lastError: z.string().nullable(),
  failingSince: z.string().nullable(),
  lastDeliveredAt: z.string().nullable(),
});
export type AuditPosition = z.infer<typeof AuditPosition>;

const columns = sql.fragment`addon_id as "addonId", stream_created as "streamCreated", position::int8 as position,
  access_position::int8 as "accessPosition",
  generation, holder, delivered::int8 as delivered, failures, missed::int8 as missed, last_error as "lastError",
  to_char(failing_since at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "failingSince",
  to_char(last_delivered_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "lastDeliveredAt"`;

/**
 * Positions and leases of audit destinations. Every write after the claim names the holder, so a replica whose lease
 * lapsed (paused, cut off) cannot move a position another replica now owns.
 */
export const auditPositionStore = {
  get(db: Queryable, addonId: number) {
    return db.maybeOne(
      sql.type(AuditPosition)`select ${columns} from admin.audit_positions where addon_id = ${addonId}`,
    );
  },

  /** Starts a destination's position (where it first reads from) unless it has one. */
  begin(db: WriteTx, addonId: number, start: { created: string; position: number; accessPosition: number }) {
    return db.query(sql.unsafe`
      insert into admin.audit_positions (addon_id, stream_created, position, access_position)
      values (${addonId}, ${start.created}, ${start.position}, ${start.accessPosition}) on conflict (addon_id) do nothing`);
  },

  /** The row, for the holder of a lease still running only. */
  held(db: Queryable, addonId: number, holder: string) {
    return db.maybeOne(sql.type(AuditPosition)`
      select ${columns} from admin.audit_positions where addon_id = ${addonId} and holder = ${holder} and lease_until > now()`);
  },

  /** Moves past delivered sign-in history; false when the lease or the generation changed meanwhile. */
  async advanceAccess(
    db: WriteTx,
    move: { addonId: number; holder: string; generation: number; upTo: number; delivered: number },
  ): Promise<boolean> {
    const result = await db.query(sql.unsafe`
      update admin.audit_positions set access_position = greatest(access_position, ${move.upTo}),
        delivered = delivered + ${move.delivered}, failures = 0, failing_since = null, last_error = null,
        last_delivered_at = case when ${move.delivered} > 0 then now() else last_delivered_at end
      where addon_id = ${move.addonId} and holder = ${move.holder} and generation = ${move.generation}`);
    return result.rowCount === 1;
  },

  /** Takes or renews the lease: the row when this holder has it now, null when another replica's is still running. */
  claim(db: WriteTx, addonId: number, holder: string, leaseMs: number) {
    return db.maybeOne(sql.type(AuditPosition)`
      update admin.audit_positions set holder = ${holder}, lease_until = now() + ${leaseMs} * interval '1 millisecond'
      where addon_id = ${addonId} and (holder = ${holder} or holder is null or lease_until < now())
      returning ${columns}`);
  },

  /** Lets the lease go at once (a replica that stops), so another takes over without waiting for it to lapse. */
  release(db: WriteTx, addonId: number, holder: string) {
    return db.query(sql.unsafe`
      update admin.audit_positions set holder = null, lease_until = null where addon_id = ${addonId} and holder = ${holder}`);
  },

  /** The position to read from, for the holder only; a stream made anew starts from its beginning. */
  readFrom(db: WriteTx, addonId: number, holder: string, stream: { created: string; firstSeq: number }) {
    return db.maybeOne(sql.type(AuditPosition)`
      update admin.audit_positions set
        -- Events the stream no longer holds are counted once and passed: the position moves to where it starts.
        position = greatest(${stream.firstSeq} - 1, case when stream_created = ${stream.created} then position else 0 end),
        missed = missed + greatest(0, ${stream.firstSeq} - 1
          - case when stream_created = ${stream.created} then position else 0 end),
        stream_created = ${stream.created}
      where addon_id = ${addonId} and holder = ${holder} and lease_until > now()
      returning ${columns}`);
  },

  /** Moves past a delivered run; false when the lease or the generation (a replay) changed meanwhile. */
  async advance(
    db: WriteTx,
    move: { addonId: number; holder: string; generation: number; upTo: number; delivered: number },
  ): Promise<boolean> {
    const result = await db.query(sql.unsafe`
      update admin.audit_positions set position = greatest(position, ${move.upTo}), delivered = delivered + ${move.delivered},
        failures = 0, failing_since = null, last_error = null,
        last_delivered_at = case when ${move.delivered} > 0 then now() else last_delivered_at end
      where addon_id = ${move.addonId} and holder = ${move.holder} and generation = ${move.generation}`);
    return result.rowCount === 1;
  },

  failed(db: WriteTx, addonId: number, holder: string, error: string) {
    return db.query(sql.unsafe`
      update admin.audit_positions set failures = failures + 1, last_error = ${error.slice(0, 1000)},
        failing_since = coalesce(failing_since, now())
      where addon_id = ${addonId} and holder = ${holder}`);
  },

  /** Delivers again from a position (a replay): the running reader sees the new generation and starts over. */
  rewind(db: WriteTx, addonId: number, start: { created: string; position: number; accessPosition: number }) {
    return db.maybeOne(sql.type(AuditPosition)`
      update admin.audit_positions set position = ${start.position}, stream_created = ${start.created},
        access_position = ${start.accessPosition},
        generation = generation + 1, failures = 0, failing_since = null, last_error = null
      where addon_id = ${addonId} returning ${columns}`);
  },
};
