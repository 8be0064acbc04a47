-- Up Migration
-- One id per installation, generated at first start (instance statistics).
create table instance (
  singleton boolean primary key default true check (singleton),
  instance_id uuid not null,
  created_at timestamptz not null default now()
);

-- What insights keeps of each domain event: enough for time windows, never the payload.
create table events (
  uuid uuid primary key,
  type text not null,
  created_at timestamptz not null,
  project text,
  environment text,
  feature_name text,
  members_added integer not null default 0
);
create index events_created on events (created_at);
create index events_project on events (project, created_at);
create index events_feature_type on events (feature_name, type);

-- Last known project of each flag and type of each environment, to attribute metrics and changes.
create table feature_projects (
  feature_name text primary key,
  project text not null
);
create table environment_types (
  name text primary key,
  type text not null
);

-- SDK metrics, summed per hour; a message's stream sequence is recorded with its sums so redelivery adds nothing.
create table processed_metrics (
  stream_sequence bigint primary key,
  processed_at timestamptz not null default now()
);
create table metric_hours (
  hour timestamptz not null,
  app_name text not null,
  environment text not null,
  feature_name text not null,
  yes bigint not null default 0,
  no bigint not null default 0,
  primary key (hour, app_name, environment, feature_name)
);
create table metric_variant_hours (
  hour timestamptz not null,
  app_name text not null,
  environment text not null,
  feature_name text not null,
  variant text not null,
  count bigint not null default 0,
  primary key (hour, app_name, environment, feature_name, variant)
);
create table applications (
  app_name text primary key,
  first_seen timestamptz not null,
  last_seen timestamptz not null
);

-- Daily snapshots behind the trends; the latest snapshot of a day replaces the earlier ones.
create table user_trends (
  day date primary key,
  total integer not null,
  active integer not null,
  inactive integer not null
);
create table flag_trends (
  day date primary key,
  total integer not null,
  active integer not null,
  stale integer not null,
  potentially_stale integer not null
);
create table project_trends (
  day date not null,
  project text not null,
  health integer not null,
  time_to_production double precision not null,
  total integer not null,
  active integer not null,
  stale integer not null,
  potentially_stale integer not null,
  users integer not null,
  primary key (day, project)
);
