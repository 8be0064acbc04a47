import { z } from 'zod';
import type { WriteTx } from '../events/write-tx.ts';
import { Addon, AddonDelivery, type AddonInput } from '@bunting/contracts';
import { sql, type Queryable } from '@bunting/platform';

export const AddonRow = Addon.extend({ createdAt: z.string() });
export type AddonRow = z.infer<typeof AddonRow>;

const Delivery = AddonDelivery;

const columns = sql.fragment`id, provider, description, enabled, parameters, events, projects, environments, created_at as "createdAt"`;

type AddonWrite = Omit<AddonInput, 'description' | 'projects' | 'environments'> & {
  description: string | null;
  projects: string[];
  environments: string[];
};

export const addonStore = {
  list(db: Queryable) {
    return db.any(sql.type(AddonRow)`select ${columns} from admin.addons order by id`);
  },
  get(db: Queryable, id: number) {
    return db.maybeOne(sql.type(AddonRow)`select ${columns} from admin.addons where id = ${id}`);
  },
  /** Enabled addons that want an event of this type. */
  listFor(db: Queryable, eventType: string) {
    return db.any(
      sql.type(AddonRow)`select ${columns} from admin.addons where enabled and ${eventType} = any(events) order by id`,
    );
  },
  insert(db: WriteTx, addon: AddonWrite) {
    return db.one(sql.type(AddonRow)`
      insert into admin.addons (provider, description, enabled, parameters, events, projects, environments)
      values (${addon.provider}, ${addon.description}, ${addon.enabled}, ${sql.jsonb(addon.parameters as object)},
        ${sql.array(addon.events, 'text')}, ${sql.array(addon.projects, 'text')}, ${sql.array(addon.environments, 'text')})
      returning ${columns}`);
  },
  update(db: WriteTx, id: number, addon: AddonWrite) {
    return db.one(sql.type(AddonRow)`
      update admin.addons set provider = ${addon.provider}, description = ${addon.description}, enabled = ${addon.enabled},
        parameters = ${sql.jsonb(addon.parameters as object)}, events = ${sql.array(addon.events, 'text')},
        projects = ${sql.array(addon.projects, 'text')}, environments = ${sql.array(addon.environments, 'text')}
      where id = ${id} returning ${columns}`);
  },
  delete(db: WriteTx, id: number) {
    return db.query(sql.unsafe`delete from admin.addons where id = ${id}`);
  },
  wasDelivered(db: Queryable, addonId: number, eventUuid: string) {
    return db.exists(
      sql.unsafe`select 1 from admin.addon_deliveries where addon_id = ${addonId} and event_uuid = ${eventUuid}`,
    );
  },
  /** At most one delivery per addon and event. */
  recordDelivery(
    db: WriteTx,
    delivery: { addonId: number; eventUuid: string; state: string; details: string; event: object; request: object },
  ) {
    return db.query(sql.unsafe`
      insert into admin.addon_deliveries (addon_id, event_uuid, state, state_details, event, details)
      values (${delivery.addonId}, ${delivery.eventUuid}, ${delivery.state}, ${delivery.details}, ${sql.jsonb(delivery.event)}, ${sql.jsonb(delivery.request)})
      on conflict (addon_id, event_uuid) do nothing`);
  },
  /** The latest deliveries of one addon, newest first. */
  deliveries(db: Queryable, addonId: number) {
    return db.any(sql.type(Delivery)`
      select id::text, addon_id as "integrationId", created_at as "createdAt", state, state_details as "stateDetails", event, details
      from admin.addon_deliveries where addon_id = ${addonId} order by id desc limit 100`);
  },
};
