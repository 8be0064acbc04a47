-- Up Migration
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
