-- Up Migration
-- How many users each flag has answered in an environment (an experiment's users), bounded by
-- TRACKED_UNITS_MAX_PER_FLAG; checked against this count, not a count(*). `if not exists`: for a 007 that, for one
-- commit (bd36f31), made this table itself.
create table if not exists tracked_flag_units (
  environment text not null,
  feature text not null,
  units int8 not null,
  primary key (environment, feature)
);
