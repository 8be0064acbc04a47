-- Up Migration
-- How far into the events stream the log is stored, written in the same transaction as the events it covers: the
-- log's own bookmark, so replicas store runs of events in stream order and skip what another stored first.
create table stream_position (
  singleton boolean primary key default true check (singleton),
  last_sequence bigint not null
);
insert into stream_position (last_sequence) values (0);
