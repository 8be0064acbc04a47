import { Button, Checkbox, Group, Modal, Stack, Table, Text, TextInput, Textarea } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { ContextField } from '@bunting/contracts';
import { fieldError, get, post, put } from '../api/http.ts';
import { referenceKeys } from '../api/keys.ts';
import { usePermission } from '../api/session.ts';
import { parseValues } from '../constraints/constraint-values.ts';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { Guarded } from '../ui/guarded.tsx';
import { notifySaved } from '../ui/notify.ts';
import { useRemoval } from '../ui/use-removal.ts';
import { Failed, Loading } from '../ui/states.tsx';
import { adminKeys } from '../api/admin-keys.ts';

function ContextFieldModal({ field, onClose }: { field: ContextField | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(field?.name ?? '');
  const [description, setDescription] = useState(field?.description ?? '');
  const [stickiness, setStickiness] = useState(field?.stickiness ?? false);
  const [values, setValues] = useState((field?.legalValues ?? []).map((legal) => legal.value).join('\n'));
  const save = useMutation({
    mutationFn: () => {
      const body = { name, description: description || null, stickiness, legalValues: parseValues(values).map((value) => ({ value })) };
      return field ? put(`/api/admin/context/${encodeURIComponent(field.name)}`, body) : post('/api/admin/context', body);
    },
    onSuccess: async () => {
      await Promise.all([queryClient.invalidateQueries({ queryKey: adminKeys.contextFields }), queryClient.invalidateQueries({ queryKey: referenceKeys.contextFields })]);
      notifySaved(`Context field ${name} saved`);
      onClose();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <Modal opened onClose={onClose} title={field ? `Context field ${field.name}` : 'New context field'}>
      <form onSubmit={submit}>
        <Stack>
          <TextInput label="Name" required disabled={field !== null} value={name} onChange={(event) => setName(event.currentTarget.value)} error={fieldError(save.error, 'name') ?? (save.error && !fieldError(save.error, 'legalValues') ? save.error.message : undefined)} data-autofocus />
          <TextInput label="Description" value={description} onChange={(event) => setDescription(event.currentTarget.value)} />
          <Checkbox label="Usable as stickiness (rollouts and variants hash it)" checked={stickiness} onChange={(event) => setStickiness(event.currentTarget.checked)} />
          <Textarea label="Legal values" description="One per line or separated by commas; constraints may then only use these" autosize minRows={3} maxRows={10} value={values} onChange={(event) => setValues(event.currentTarget.value)} error={fieldError(save.error, 'legalValues')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={save.isPending} disabled={!name.trim()}>Save</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** The context fields constraints and stickiness may use, with their legal values and how many flags use them. */
export default function ContextFieldsPage() {
  const can = usePermission();
  const create = can('CREATE_CONTEXT_FIELD');
  const fields = useQuery({ queryKey: adminKeys.contextFields, queryFn: ({ signal }) => get<ContextField[]>('/api/admin/context', signal) });
  const [editing, setEditing] = useState<ContextField | null | undefined>(undefined);
  const deleteField = useRemoval((name: string) => `/api/admin/context/${encodeURIComponent(name)}`, { refresh: [adminKeys.contextFields, referenceKeys.contextFields], done: 'Context field removed', failed: 'Not removed' });
  if (fields.isPending) return <Loading label="Loading context fields" />;
  if (fields.isError) return <Failed error={fields.error} />;
  return (
    <Stack>
      <Group justify="flex-end">
        <Guarded reason={create.reason}><Button onClick={() => setEditing(null)} disabled={!create.allowed}>New context field</Button></Guarded>
      </Group>
      <Table aria-label="Context fields">
        <Table.Thead><Table.Tr><Table.Th>Name</Table.Th><Table.Th>Legal values</Table.Th><Table.Th ta="right">Used by flags</Table.Th><Table.Th /></Table.Tr></Table.Thead>
        <Table.Tbody>
          {fields.data.map((field) => (
            <Table.Tr key={field.name}>
              <Table.Td>
                <Button variant="subtle" size="compact-sm" onClick={() => setEditing(field)}>{field.name}</Button>
                {field.description ? <Text size="sm" c="dimmed">{field.description}</Text> : null}
              </Table.Td>
              <Table.Td><Text size="sm" lineClamp={2}>{field.legalValues.map((legal) => legal.value).join(', ') || 'any value'}</Text></Table.Td>
              <Table.Td ta="right">{field.usedInFeatures ?? 0}</Table.Td>
              <Table.Td>
                <ConfirmButton size="compact-sm" variant="subtle" color="red" aria-label={`Remove ${field.name}`} disabled={!can('DELETE_CONTEXT_FIELD').allowed}
                  title={`Remove ${field.name}?`} message="Constraints that use it stay, but the field is no longer offered." confirmLabel="Remove" onConfirm={() => deleteField.mutate(field.name)}>Remove</ConfirmButton>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {editing !== undefined ? <ContextFieldModal field={editing} onClose={() => setEditing(undefined)} /> : null}
    </Stack>
  );
}
