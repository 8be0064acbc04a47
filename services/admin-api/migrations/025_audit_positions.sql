-- Up Migration
-- Where each audit destination's delivery stands in the event stream, and which replica delivers it (a lease that
-- lapses when that replica stops renewing it). Counters and the last failure are what the console and /metrics show.
create table audit_positions (
  addon_id integer primary key references addons (id) on delete cascade,
  stream_created text not null,
  position bigint not null,
  generation integer not null default 0,
  holder text,
  lease_until timestamptz,
  delivered bigint not null default 0,
  failures integer not null default 0,
  missed bigint not null default 0,
  last_error text,
  failing_since timestamptz,
  last_delivered_at timestamptz
);
