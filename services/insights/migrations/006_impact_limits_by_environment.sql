-- Up Migration
-- Impact metrics are bounded per environment (and per application within it), so one environment's SDKs filling
-- their share cannot drop another's new metrics or series. A series' environment and application are its labels'.
alter table impact_series add column environment text not null default '';
alter table impact_series add column app text not null default '';
update impact_series set environment = coalesce(labels ->> 'environment', ''), app = coalesce(labels ->> 'appName', '');
create index impact_series_environment on impact_series (environment, metric, app);
