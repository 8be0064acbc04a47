-- Up Migration
-- Impact metrics: each metric an application defined (named unleash_<type>_<name>), or an admin registered.
create table impact_metrics (
  name text primary key,
  type text not null check (type in ('counter', 'gauge', 'histogram')),
  help text not null default '',
  registered boolean not null default false,
  created_at timestamptz not null default now(),
  last_seen timestamptz
);

-- One series per metric and set of labels. `total`, `total_sum` and `total_buckets` are what the Prometheus
-- exposition sends: a counter's increments since the series began, a gauge's last value, a histogram's observations.
create table impact_series (
  id bigserial primary key,
  metric text not null references impact_metrics (name) on delete cascade,
  label_key text not null,
  labels jsonb not null,
  bounds float8[],
  total float8 not null default 0,
  total_sum float8,
  total_buckets float8[],
  last_seen timestamptz not null,
  unique (metric, label_key)
);
create index impact_series_last_seen on impact_series (last_seen);

-- A series' points per minute (kept 48 hours), per quarter hour (kept 8 days: a day's chart reads 96 rows a
-- series, not 1,440) and per hour (kept IMPACT_METRICS_RETENTION_DAYS), `resolution` in seconds: a counter's
-- increase in the period, a gauge's last value, a histogram's observations with their sum and cumulative count
-- per bound.
create table impact_points (
  series_id bigint not null references impact_series (id) on delete cascade,
  resolution int4 not null check (resolution in (60, 900, 3600)),
  at timestamptz not null,
  value float8 not null,
  sum float8,
  buckets float8[],
  primary key (series_id, resolution, at)
);
create index impact_points_age on impact_points (resolution, at);

-- Settings of the impact metrics: the external Prometheus-compatible source.
create table impact_settings (
  key text primary key,
  value jsonb not null
);

-- The charts of impact metrics a flag's page shows.
create table impact_charts (
  id text primary key,
  project text not null,
  feature text not null,
  config jsonb not null,
  created_at timestamptz not null default now()
);
create index impact_charts_feature on impact_charts (project, feature);
