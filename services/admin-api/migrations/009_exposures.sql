-- Up Migration
-- SDK exposure counts per flag, environment and hour: a flag environment's `yes` and `no` (Unleash's last-hour usage).
create table feature_exposures (
  feature_name text not null references features(name) on delete cascade,
  environment text not null,
  hour timestamptz not null,
  yes bigint not null default 0,
  no bigint not null default 0,
  primary key (feature_name, environment, hour)
);
-- Sums are not idempotent: each metrics message's stream sequence is recorded with them, so a redelivery adds nothing.
create table processed_metrics (
  stream_sequence bigint primary key,
  processed_at timestamptz not null default now()
);
-- Feature links (Unleash 8's flag links to docs, tickets, dashboards).
create table feature_links (
  id text primary key,
  feature_name text not null references features(name) on delete cascade,
  url text not null,
  title text,
  created_at timestamptz not null default now()
);
create index feature_links_by_feature on feature_links (feature_name);
-- When anything in a project last changed (Unleash's lastUpdatedAt): bumped by every change that writes an event about it.
alter table projects add column last_activity_at timestamptz;
update projects set last_activity_at = coalesce(updated_at, created_at);
