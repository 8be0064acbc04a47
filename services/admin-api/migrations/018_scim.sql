-- Up Migration
-- SCIM 2.0 provisioning: users and groups an identity provider manages carry its ids (scim_id is Bunting's id
-- for them on /scim/v2, external_id the provider's own). A deactivated user keeps their account and history but
-- cannot sign in.
alter table users add column scim_external_id text;
alter table users add column active boolean not null default true;
create unique index users_scim_id on users (scim_id) where scim_id is not null;
alter table groups add column scim_id text;
alter table groups add column scim_external_id text;
create unique index groups_scim_id on groups (scim_id) where scim_id is not null;
-- Whether SCIM is on, and the hash of the token the provider sends (the token itself is shown once).
create table scim_settings (
  id integer primary key default 1 check (id = 1),
  enabled boolean not null default false,
  token_hash text,
  updated_at timestamptz not null default now()
);
