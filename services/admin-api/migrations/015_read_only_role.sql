-- Up Migration
-- The read-only root role, Reader (Unleash 8's name for it): a user holding it sees what a viewer sees and changes nothing, whatever
-- project roles, groups or tokens would otherwise grant. Built in, so its id is whatever the sequence gives here.
alter table roles add column read_only boolean not null default false;
insert into roles (name, description, type, read_only)
values ('Reader', 'Users with the reader role can see what viewers see and can never change anything: project roles, groups and the tokens they make give them no more.', 'root', true)
on conflict (name) do nothing;
