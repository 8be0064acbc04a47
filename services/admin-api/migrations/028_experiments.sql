-- Experiments on a flag's variants in one environment: settings and, once stopped, the decision. Results are read
-- from insights' figures when asked for, so nothing per user or per hour is kept here.
create table experiments (
  id text primary key,
  feature_name text not null references features (name) on delete cascade,
  environment text not null references environments (name) on delete cascade,
  name text not null,
  hypothesis text,
  control_variant text not null,
  metrics jsonb not null,
  method text not null check (method in ('sequential', 'fixed-horizon')),
  alpha float8 not null,
  correction text not null check (correction in ('holm', 'benjamini-hochberg')),
  minimum_sample integer not null,
  started_at timestamptz not null default now(),
  stopped_at timestamptz,
  decision jsonb
);
create index experiments_feature on experiments (feature_name, started_at);
-- One running experiment per flag environment: two would read the same exposures.
create unique index experiments_running on experiments (feature_name, environment) where stopped_at is null;
