import { Alert, Button, ColorInput, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { TagType } from '@bunting/contracts';
import { fieldError, get, messageOf, post, segment } from '../api/http.ts';
import { usePermission } from '../api/session.ts';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { notifySaved } from '../ui/notify.ts';
import { useRemoval } from '../ui/use-removal.ts';
import { Empty, Failed, Loading } from '../ui/states.tsx';
import { adminKeys } from '../api/admin-keys.ts';

/** Tag types: the kinds of tag flags carry (simple, or your own, with a colour). */
export default function TagTypesPage() {
  const queryClient = useQueryClient();
  const can = usePermission();
  const tagTypes = useQuery({ queryKey: adminKeys.tagTypes, queryFn: ({ signal }) => get<{ tagTypes: TagType[] }>('/api/admin/tag-types', signal) });
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [color, setColor] = useState('');
  const create = useMutation({
    mutationFn: () => post('/api/admin/tag-types', { name: name.trim(), ...(description.trim() ? { description: description.trim() } : {}), ...(color ? { color } : {}) }),
    onSuccess: async () => {
      setName('');
      setDescription('');
      setColor('');
      await queryClient.invalidateQueries({ queryKey: adminKeys.tagTypes });
      notifySaved('Tag type created');
    },
  });
  const deleteType = useRemoval((type: string) => `/api/admin/tag-types/${segment(type)}`, { refresh: [adminKeys.tagTypes], done: 'Tag type deleted' });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <Stack>
      {can('CREATE_TAG_TYPE').allowed ? (
        <form onSubmit={submit} aria-label="Create a tag type">
          <Group align="flex-start" grow>
            <TextInput label="New tag type" value={name} onChange={(event) => setName(event.currentTarget.value)} error={fieldError(create.error, 'name')} />
            <TextInput label="Description" value={description} onChange={(event) => setDescription(event.currentTarget.value)} />
            <ColorInput label="Colour" format="hex" value={color} onChange={setColor} eyeDropperButtonProps={{ 'aria-label': 'Pick a colour from the screen' }} error={fieldError(create.error, 'color')} />
          </Group>
          {create.error && !fieldError(create.error, 'name') && !fieldError(create.error, 'color') ? <Alert mt="xs" color="red" role="alert">{messageOf(create.error)}</Alert> : null}
          <Group justify="flex-end" mt="xs"><Button type="submit" loading={create.isPending} disabled={!name.trim()}>Create tag type</Button></Group>
        </form>
      ) : null}
      {tagTypes.isPending ? <Loading label="Loading tag types" /> : tagTypes.isError ? <Failed error={tagTypes.error} /> : tagTypes.data.tagTypes.length === 0 ? <Empty title="No tag types" /> : (
        <Table aria-label="Tag types">
          <Table.Thead><Table.Tr><Table.Th>Name</Table.Th><Table.Th>Description</Table.Th><Table.Th>Colour</Table.Th><Table.Th /></Table.Tr></Table.Thead>
          <Table.Tbody>
            {tagTypes.data.tagTypes.map((type) => (
              <Table.Tr key={type.name}>
                <Table.Td><Text fw={600} size="sm">{type.name}</Text></Table.Td>
                <Table.Td><Text size="sm">{type.description ?? ''}</Text></Table.Td>
                <Table.Td>{type.color ? <Group gap={6}><span aria-hidden style={{ display: 'inline-block', width: 14, height: 14, borderRadius: 3, background: type.color }} /><Text size="sm">{type.color}</Text></Group> : null}</Table.Td>
                <Table.Td>
                  <ConfirmButton size="compact-sm" variant="subtle" color="red" aria-label={`Delete the tag type ${type.name}`} disabled={!can('DELETE_TAG_TYPE').allowed}
                    title="Delete this tag type?" message="Its tags are removed from every flag." confirmLabel="Delete" onConfirm={() => deleteType.mutate(type.name)}>Delete</ConfirmButton>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
