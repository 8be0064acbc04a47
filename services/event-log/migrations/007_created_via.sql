-- Up Migration
-- A change made through an agent's MCP client names that client; most events have none.
alter table events add column created_via text;
