-- Up Migration
-- Set by the hourly check once a flag outlives its type's expected lifetime (feature-potentially-stale-on).
alter table features add column potentially_stale boolean not null default false;
