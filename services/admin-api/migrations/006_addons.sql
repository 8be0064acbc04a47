-- Up Migration
-- Integrations (Unleash's addons): which events go where.
create table addons (
  id serial primary key,
  provider text not null,
  description text,
  enabled boolean not null default true,
  parameters jsonb not null default '{}',
  events text[] not null default '{}',
  projects text[] not null default '{}',
  environments text[] not null default '{}',
  created_at timestamptz not null default now()
);

-- What each delivery did; one row per addon and event, so a redelivered event is not sent twice.
create table addon_deliveries (
  id bigserial primary key,
  addon_id integer not null references addons (id) on delete cascade,
  event_uuid uuid not null,
  created_at timestamptz not null default now(),
  state text not null,
  state_details text not null,
  event jsonb not null,
  details jsonb not null default '{}',
  unique (addon_id, event_uuid)
);
create index addon_deliveries_addon on addon_deliveries (addon_id, id desc);
