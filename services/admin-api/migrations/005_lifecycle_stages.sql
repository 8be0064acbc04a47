-- Up Migration
-- Every stage a flag entered, for GET .../lifecycle; the current one is also on the flag.
create table feature_lifecycle_stages (
  feature_name text not null references features (name) on delete cascade,
  stage text not null,
  status text,
  status_value text,
  entered_at timestamptz not null default now()
);
create index feature_lifecycle_stages_feature on feature_lifecycle_stages (feature_name, entered_at);
insert into feature_lifecycle_stages (feature_name, stage, entered_at)
  select name, 'initial', created_at from features;
insert into feature_lifecycle_stages (feature_name, stage, entered_at)
  select name, lifecycle_stage, lifecycle_entered_at from features where lifecycle_stage <> 'initial';
