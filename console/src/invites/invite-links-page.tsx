import { Badge, Button, Group, Stack, Table, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { fieldError } from '../api/http.ts';
import { usePermission } from '../api/session.ts';
import { Guarded } from '../ui/guarded.tsx';
import { ListTable } from '../ui/list-table.tsx';
import { SecretOnce } from '../ui/secret-once.tsx';
import { useCreateInviteLink, useDisableInviteLink, useInviteLinks } from './invite-queries.ts';

/** Links anyone may sign up with (as a Viewer) until they expire: made here, shared by the admin. */
export default function InviteLinksPage() {
  const admin = usePermission()('ADMIN');
  const links = useInviteLinks();
  const [name, setName] = useState('');
  const create = useCreateInviteLink();
  const disable = useDisableInviteLink();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(name, { onSuccess: () => setName('') });
  };
  return (
    <Stack>
      <form onSubmit={submit}>
        <Group align="flex-end">
          <TextInput
            label="New invite link"
            placeholder="Who it is for, e.g. Support team"
            w={320}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={fieldError(create.error, 'name')}
          />
          <Guarded reason={admin.reason}>
            <Button type="submit" disabled={!admin.allowed || !name.trim()} loading={create.isPending}>
              Create link (valid 7 days)
            </Button>
          </Guarded>
        </Group>
      </form>
      {create.data ? <SecretOnce label="Invite link" secret={create.data.url} /> : null}
      <ListTable
        query={links}
        label="Invite links"
        empty="No invite links"
        columns={['Name', 'Expires', 'Signed up', 'State', '']}
        rowsOf={(data) => data.tokens}
        rowKey={(link) => link.secret}
        cells={(link) => {
          const expired = Date.parse(link.expiresAt) <= Date.now();
          return (
            <>
              <Table.Td>{link.name}</Table.Td>
              <Table.Td>{new Date(link.expiresAt).toLocaleString()}</Table.Td>
              <Table.Td>{link.users?.length ?? 0}</Table.Td>
              <Table.Td>
                <Badge variant="light" color={link.enabled && !expired ? 'green' : 'gray'}>
                  {!link.enabled ? 'disabled' : expired ? 'expired' : 'active'}
                </Badge>
              </Table.Td>
              <Table.Td>
                {link.enabled && !expired ? (
                  <Button
                    size="compact-sm"
                    variant="subtle"
                    color="red"
                    aria-label={`Disable the invite link ${link.name}`}
                    disabled={!admin.allowed}
                    onClick={() => disable.mutate(link.secret)}
                  >
                    Disable
                  </Button>
                ) : null}
              </Table.Td>
            </>
          );
        }}
      />
    </Stack>
  );
}
