-- Up Migration
-- What the OpenFeature manifest API says of a flag that Unleash's model has no place for: its OpenFeature type, the
-- default value code generators put in accessors, and a display name. A flag without a row is typed from its
-- variants' payloads.
create table manifest_flags (
  feature_name text primary key references features (name) on delete cascade,
  flag_type text not null,
  default_value jsonb not null,
  display_name text,
  updated_at timestamptz not null default now()
);
