-- Up Migration
-- Which stream the position counts in (the stream's creation time): a stream made anew (NATS rebuilt after a
-- restore) numbers its messages from 1 again, so a position in another stream must not be read in it.
-- Null until a replica that knows of it starts; code that does not know of it keeps working.
alter table stream_position add column stream_created text;
