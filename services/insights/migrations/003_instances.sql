-- Up Migration
-- insights records application-created itself, through its own outbox.
create table outbox (
  id bigserial primary key,
  uuid uuid not null unique,
  subject text not null,
  payload jsonb not null,
  headers jsonb not null default '{}',
  created_at timestamptz not null default now(),
  published_at timestamptz
);
create index outbox_pending on outbox (id) where published_at is null;

-- What an admin said of an application.
alter table applications add column description text;
alter table applications add column url text;
alter table applications add column color text;
alter table applications add column icon text;

-- Each running copy of an application, per environment, as its metrics and registrations name it.
create table application_instances (
  app_name text not null,
  instance_id text not null,
  environment text not null,
  sdk_version text,
  frontend boolean not null default false,
  last_seen timestamptz not null,
  primary key (app_name, instance_id, environment)
);
