-- Up Migration
-- Unleash 8's sixth flag type: coordinating the planned removal of an existing feature.
insert into feature_types (id, name, description, lifetime_days) values
  ('sunset', 'Sunset', 'Sunset feature flags coordinate the planned removal of an existing feature.', 90)
on conflict (id) do nothing;
