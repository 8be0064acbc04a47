-- Up Migration
-- Names SDKs reported that no project has, per application: counted so that their number stays bounded.
create table unknown_flags (
  app_name text not null,
  feature_name text not null,
  first_seen timestamptz not null default now(),
  primary key (app_name, feature_name)
);
