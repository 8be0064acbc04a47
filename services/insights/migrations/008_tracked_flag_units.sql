-- Up Migration
-- How many users each flag has answered in an environment (an experiment's users), bounded by
-- TRACKED_UNITS_MAX_PER_FLAG; checked against this count, not a count(*).
create table tracked_flag_units (
  environment text not null,
  feature text not null,
  units int8 not null,
  primary key (environment, feature)
);
