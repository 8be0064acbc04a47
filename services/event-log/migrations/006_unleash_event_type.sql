-- Up Migration
-- Release management writes the spec's event types with Unleash's own name in data.unleashEventType; the event
-- search finds them by either name, so that name is indexed as the type is.
create index events_unleash_type on events ((data ->> 'unleashEventType'), id desc);
