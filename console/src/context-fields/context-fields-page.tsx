import { Button, Checkbox, Stack, Table, Text, TextInput, Textarea } from '@mantine/core';
import { useState } from 'react';
import type { ContextField } from '@bunting/contracts';
import { fieldError } from '../api/http.ts';
import { usePermission } from '../api/session.ts';
import { parseValues } from '../constraints/constraint-values.ts';
import { DeleteButton } from '../ui/delete-button.tsx';
import { CreateButton } from '../ui/create-button.tsx';
import { FormModal } from '../ui/form-modal.tsx';
import { ListTable } from '../ui/list-table.tsx';
import { useAllContextFields, useRemoveContextField, useSaveContextField } from './context-field-queries.ts';

function ContextFieldModal({ field, onClose }: { field: ContextField | null; onClose: () => void }) {
  const [name, setName] = useState(field?.name ?? '');
  const [description, setDescription] = useState(field?.description ?? '');
  const [stickiness, setStickiness] = useState(field?.stickiness ?? false);
  const [values, setValues] = useState((field?.legalValues ?? []).map((legal) => legal.value).join('\n'));
  const save = useSaveContextField(field?.name);
  const submit = () =>
    save.mutate(
      {
        name,
        description: description || null,
        stickiness,
        legalValues: parseValues(values).map((value) => ({ value })),
      },
      { onSuccess: onClose },
    );
  return (
    <FormModal
      title={field ? `Context field ${field.name}` : 'New context field'}
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Save"
      pending={save.isPending}
      disabled={!name.trim()}
      error={save.error}
      fields={['name', 'description', 'legalValues']}
    >
      <TextInput
        label="Name"
        required
        disabled={field !== null}
        value={name}
        onChange={(event) => setName(event.currentTarget.value)}
        error={fieldError(save.error, 'name')}
        data-autofocus
      />
      <TextInput
        label="Description"
        value={description}
        onChange={(event) => setDescription(event.currentTarget.value)}
        error={fieldError(save.error, 'description')}
      />
      <Checkbox
        label="Usable as stickiness (rollouts and variants hash it)"
        checked={stickiness}
        onChange={(event) => setStickiness(event.currentTarget.checked)}
      />
      <Textarea
        label="Legal values"
        description="One per line or separated by commas; constraints may then only use these"
        autosize
        minRows={3}
        maxRows={10}
        value={values}
        onChange={(event) => setValues(event.currentTarget.value)}
        error={fieldError(save.error, 'legalValues')}
      />
    </FormModal>
  );
}

/** The context fields constraints and stickiness may use, with their legal values and how many flags use them. */
export default function ContextFieldsPage() {
  const can = usePermission();
  const fields = useAllContextFields();
  const [editing, setEditing] = useState<ContextField | null | undefined>(undefined);
  const remove = useRemoveContextField();
  return (
    <Stack>
      <CreateButton permission={can('CREATE_CONTEXT_FIELD')} onClick={() => setEditing(null)}>
        New context field
      </CreateButton>
      <ListTable
        query={fields}
        label="Context fields"
        empty="No context fields"
        columns={['Name', 'Legal values', { label: 'Used by flags', numeric: true }, '']}
        rowKey={(field) => field.name}
        cells={(field) => (
          <>
            <Table.Td>
              <Button variant="subtle" size="compact-sm" onClick={() => setEditing(field)}>
                {field.name}
              </Button>
              {field.description ? (
                <Text size="sm" c="dimmed">
                  {field.description}
                </Text>
              ) : null}
            </Table.Td>
            <Table.Td>
              <Text size="sm" lineClamp={2}>
                {field.legalValues.map((legal) => legal.value).join(', ') || 'any value'}
              </Text>
            </Table.Td>
            <Table.Td ta="right">{field.usedInFeatures ?? 0}</Table.Td>
            <Table.Td>
              <DeleteButton
                verb="Remove"
                what={field.name}
                disabled={!can('DELETE_CONTEXT_FIELD').allowed}
                title={`Remove ${field.name}?`}
                message="Constraints that use it stay, but the field is no longer offered."
                onConfirm={() => remove.mutate(field.name)}
              />
            </Table.Td>
          </>
        )}
      />
      {editing !== undefined ? <ContextFieldModal field={editing} onClose={() => setEditing(undefined)} /> : null}
    </Stack>
  );
}
