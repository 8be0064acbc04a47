import { Alert, Button, Group, Modal, Stack, Table, Text, TextInput, Textarea } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { ConstraintInput, Segment } from '@bunting/contracts';
import { fieldError, get, messageOf, post, put } from '../api/http.ts';
import { referenceKeys } from '../api/keys.ts';
import { useContextFields } from '../api/reference.ts';
import { usePermission } from '../api/session.ts';
import { ConstraintEditor } from '../constraints/constraint-editor.tsx';
import { constraintProblem, toWire } from '../constraints/constraint-values.ts';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { Guarded } from '../ui/guarded.tsx';
import { notifySaved } from '../ui/notify.ts';
import { useRemoval } from '../ui/use-removal.ts';
import { Empty, Failed, Loading } from '../ui/states.tsx';
import { adminKeys } from '../api/admin-keys.ts';

type SegmentUse = { strategies: { id: string; featureName: string; projectId: string; environment: string }[] };

function SegmentModal({ segment, onClose }: { segment: Segment | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const fields = useContextFields();
  const [name, setName] = useState(segment?.name ?? '');
  const [description, setDescription] = useState(segment?.description ?? '');
  const [constraints, setConstraints] = useState<ConstraintInput[]>((segment?.constraints ?? []) as ConstraintInput[]);
  const use = useQuery({ queryKey: adminKeys.segmentUse(segment?.id ?? 0), queryFn: ({ signal }) => get<SegmentUse>(`/api/admin/segments/${segment!.id}/strategies`, signal), enabled: segment !== null });
  const problems = constraints.map(constraintProblem);
  const save = useMutation({
    mutationFn: () => {
      const body = { name, description: description || null, constraints: constraints.map(toWire) };
      return segment ? put(`/api/admin/segments/${segment.id}`, body) : post('/api/admin/segments', body);
    },
    onSuccess: async () => {
      await Promise.all([queryClient.invalidateQueries({ queryKey: adminKeys.segments }), queryClient.invalidateQueries({ queryKey: referenceKeys.segments })]);
      notifySaved(`Segment ${name} saved`);
      onClose();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (problems.every((problem) => problem === undefined)) save.mutate();
  };
  return (
    <Modal opened onClose={onClose} title={segment ? `Segment ${segment.name}` : 'New segment'} size="xl">
      <form onSubmit={submit}>
        <Stack>
          <TextInput label="Name" required value={name} onChange={(event) => setName(event.currentTarget.value)} error={fieldError(save.error, 'name')} data-autofocus />
          <Textarea label="Description" autosize minRows={1} value={description} onChange={(event) => setDescription(event.currentTarget.value)} />
          <Text fw={600} size="sm">Constraints (all must hold)</Text>
          <ConstraintEditor constraints={constraints} fields={fields.data ?? []} onChange={setConstraints} errors={problems} />
          {segment ? (
            <Text size="sm" c="dimmed">
              {use.data ? (use.data.strategies.length === 0 ? 'No strategy uses this segment.' : `Used by ${use.data.strategies.map((strategy) => `${strategy.featureName} (${strategy.environment})`).join(', ')}.`) : 'Looking up where it is used…'}
            </Text>
          ) : null}
          {save.error && !fieldError(save.error, 'name') ? <Alert color="red" role="alert">{messageOf(save.error)}</Alert> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={save.isPending} disabled={!name.trim()}>Save segment</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Segments: named constraint lists that strategies share; changing one changes every flag that uses it. */
export default function SegmentsPage() {
  const can = usePermission();
  const create = can('CREATE_SEGMENT');
  const segments = useQuery({ queryKey: adminKeys.segments, queryFn: ({ signal }) => get<{ segments: Segment[] }>('/api/admin/segments', signal) });
  const [editing, setEditing] = useState<Segment | null | undefined>(undefined);
  const deleteSegment = useRemoval((id: number) => `/api/admin/segments/${id}`, { refresh: [adminKeys.segments], done: 'Segment removed', failed: 'Not removed' });
  return (
    <Stack>
      <Group justify="flex-end">
        <Guarded reason={create.reason}><Button onClick={() => setEditing(null)} disabled={!create.allowed}>New segment</Button></Guarded>
      </Group>
      {segments.isPending ? <Loading label="Loading segments" /> : segments.isError ? <Failed error={segments.error} /> : segments.data.segments.length === 0 ? <Empty title="No segments yet" /> : (
        <Table aria-label="Segments">
          <Table.Thead><Table.Tr><Table.Th>Name</Table.Th><Table.Th ta="right">Constraints</Table.Th><Table.Th>Project</Table.Th><Table.Th /></Table.Tr></Table.Thead>
          <Table.Tbody>
            {segments.data.segments.map((segment) => (
              <Table.Tr key={segment.id}>
                <Table.Td>
                  <Button variant="subtle" size="compact-sm" onClick={() => setEditing(segment)}>{segment.name}</Button>
                  {segment.description ? <Text size="sm" c="dimmed">{segment.description}</Text> : null}
                </Table.Td>
                <Table.Td ta="right">{segment.constraints.length}</Table.Td>
                <Table.Td>{segment.project ?? 'every project'}</Table.Td>
                <Table.Td>
                  <ConfirmButton size="compact-sm" variant="subtle" color="red" aria-label={`Remove ${segment.name}`} disabled={!can('DELETE_SEGMENT').allowed}
                    title={`Remove ${segment.name}?`} message="A segment still used by a strategy cannot be removed." confirmLabel="Remove" onConfirm={() => deleteSegment.mutate(segment.id)}>Remove</ConfirmButton>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {editing !== undefined ? <SegmentModal segment={editing} onClose={() => setEditing(undefined)} /> : null}
    </Stack>
  );
}
