-- Up Migration
-- Whether a user is e-mailed when a change request waits for their review (on unless they turn it off).
alter table users add column notify_change_requests boolean not null default true;
