import { Button, Stack, Table, Text, TextInput, Textarea } from '@mantine/core';
import { useState } from 'react';
import type { ConstraintInput, Segment } from '@bunting/contracts';
import { fieldError } from '../api/http.ts';
import { usePermission } from '../api/session.ts';
import { useContextFields } from '../context-fields/context-field-queries.ts';
import { ConstraintEditor } from '../constraints/constraint-editor.tsx';
import { constraintProblem, toWire } from '../constraints/constraint-values.ts';
import { DeleteButton } from '../ui/delete-button.tsx';
import { CreateButton } from '../ui/create-button.tsx';
import { FormModal } from '../ui/form-modal.tsx';
import { ListTable } from '../ui/list-table.tsx';
import { useRemoveSegment, useSaveSegment, useSegmentUse, useSegments } from './segment-queries.ts';

function SegmentModal({ segment, onClose }: { segment: Segment | null; onClose: () => void }) {
  const fields = useContextFields();
  const [name, setName] = useState(segment?.name ?? '');
  const [description, setDescription] = useState(segment?.description ?? '');
  const [constraints, setConstraints] = useState<ConstraintInput[]>((segment?.constraints ?? []) as ConstraintInput[]);
  const use = useSegmentUse(segment?.id);
  const problems = constraints.map(constraintProblem);
  const save = useSaveSegment(segment?.id);
  const submit = () => {
    if (problems.every((problem) => problem === undefined))
      save.mutate(
        { name, description: description || null, constraints: constraints.map(toWire) },
        { onSuccess: onClose },
      );
  };
  return (
    <FormModal
      title={segment ? `Segment ${segment.name}` : 'New segment'}
      size="xl"
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Save segment"
      pending={save.isPending}
      disabled={!name.trim()}
      error={save.error}
      fields={['name', 'description']}
    >
      <TextInput
        label="Name"
        required
        value={name}
        onChange={(event) => setName(event.currentTarget.value)}
        error={fieldError(save.error, 'name')}
        data-autofocus
      />
      <Textarea
        label="Description"
        autosize
        minRows={1}
        value={description}
        onChange={(event) => setDescription(event.currentTarget.value)}
        error={fieldError(save.error, 'description')}
      />
      <Text fw={600} size="sm">
        Constraints (all must hold)
      </Text>
      <ConstraintEditor
        constraints={constraints}
        fields={fields.data ?? []}
        onChange={setConstraints}
        errors={problems}
      />
      {segment ? (
        <Text size="sm" c="dimmed">
          {use.data
            ? use.data.strategies.length === 0
              ? 'No strategy uses this segment.'
              : `Used by ${use.data.strategies.map((strategy) => `${strategy.featureName} (${strategy.environment})`).join(', ')}.`
            : 'Looking up where it is used…'}
        </Text>
      ) : null}
    </FormModal>
  );
}

/** Segments: named constraint lists that strategies share; changing one changes every flag that uses it. */
export default function SegmentsPage() {
  const can = usePermission();
  const segments = useSegments();
  const [editing, setEditing] = useState<Segment | null | undefined>(undefined);
  const remove = useRemoveSegment();
  return (
    <Stack>
      <CreateButton permission={can('CREATE_SEGMENT')} onClick={() => setEditing(null)}>
        New segment
      </CreateButton>
      <ListTable
        query={segments}
        label="Segments"
        empty="No segments yet"
        columns={['Name', { label: 'Constraints', numeric: true }, 'Project', '']}
        rowKey={(segment) => segment.id}
        cells={(segment) => (
          <>
            <Table.Td>
              <Button variant="subtle" size="compact-sm" onClick={() => setEditing(segment)}>
                {segment.name}
              </Button>
              {segment.description ? (
                <Text size="sm" c="dimmed">
                  {segment.description}
                </Text>
              ) : null}
            </Table.Td>
            <Table.Td ta="right">{segment.constraints.length}</Table.Td>
            <Table.Td>{segment.project ?? 'every project'}</Table.Td>
            <Table.Td>
              <DeleteButton
                verb="Remove"
                what={segment.name}
                disabled={!can('DELETE_SEGMENT').allowed}
                title={`Remove ${segment.name}?`}
                message="A segment still used by a strategy cannot be removed."
                onConfirm={() => remove.mutate(segment.id)}
              />
            </Table.Td>
          </>
        )}
      />
      {editing !== undefined ? <SegmentModal segment={editing} onClose={() => setEditing(undefined)} /> : null}
    </Stack>
  );
}
