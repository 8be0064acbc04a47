-- Up Migration
-- Outcomes tracked through OpenFeature, per user, for experiments that count users and adjust for the period
-- before they began (CUPED). A user's totals of a metric per UTC day, and which answer each flag gave the user:
-- kept TRACKED_UNITS_RETENTION_DAYS, bounded per environment and day by TRACKED_UNITS_MAX_PER_DAY.
create table tracked_totals (
  environment text not null,
  metric text not null,
  unit_key text not null,
  day date not null,
  total float8 not null,
  events int8 not null,
  primary key (environment, metric, day, unit_key)
);
create index tracked_totals_unit on tracked_totals (environment, unit_key, metric, day);

create table tracked_answers (
  environment text not null,
  feature text not null,
  unit_key text not null,
  answer text not null,
  first_day date not null,
  last_day date not null,
  primary key (environment, feature, unit_key, answer)
);
create index tracked_answers_age on tracked_answers (last_day);

-- How many (user, metric) rows each environment's day holds: the bound is checked against it, not a count(*).
create table tracked_unit_days (
  environment text not null,
  day date not null,
  units int8 not null,
  primary key (environment, day)
);
