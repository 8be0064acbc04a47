-- Up Migration
create table events (
  id bigserial primary key,
  uuid uuid not null unique,
  type text not null,
  created_at timestamptz not null,
  created_by text not null,
  created_by_user_id integer,
  environment text,
  project text,
  feature_name text,
  data jsonb,
  pre_data jsonb,
  tags jsonb not null default '[]',
  group_id text,
  received_at timestamptz not null default now()
);
create index events_project on events (project, id desc);
create index events_feature on events (feature_name, id desc);
create index events_type on events (type, id desc);
