import { ActionIcon, Badge, Button, Checkbox, Group, NativeSelect, Stack, Table, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { StrategyDefinition } from '@bunting/contracts';
import { fieldError } from '../api/http.ts';
import { usePermission } from '../api/session.ts';
import { DeleteButton } from '../ui/delete-button.tsx';
import { CreateButton } from '../ui/create-button.tsx';
import { FormModal } from '../ui/form-modal.tsx';
import { ListTable } from '../ui/list-table.tsx';
import {
  useCreateStrategyDefinition,
  useDeleteStrategyDefinition,
  useDeprecateStrategyDefinition,
  useStrategyDefinitions,
} from './strategy-definition-queries.ts';

type Parameter = StrategyDefinition['parameters'][number];
const TYPES: Parameter['type'][] = ['string', 'percentage', 'list', 'number', 'boolean'];

function NewStrategyModal({ onClose }: { onClose: () => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [parameters, setParameters] = useState<Parameter[]>([]);
  const create = useCreateStrategyDefinition();
  const submit = () =>
    create.mutate(
      {
        name: name.trim(),
        ...(description.trim() ? { description: description.trim() } : {}),
        parameters: parameters.filter((parameter) => parameter.name.trim()),
      },
      { onSuccess: onClose },
    );
  const update = (index: number, change: Partial<Parameter>) =>
    setParameters((list) => list.map((parameter, at) => (at === index ? { ...parameter, ...change } : parameter)));
  return (
    <FormModal
      title="New strategy"
      size="xl"
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Create strategy"
      pending={create.isPending}
      disabled={!name.trim()}
      error={create.error}
      fields={['name']}
    >
      <TextInput
        label="Name"
        description="What SDKs know it by: letters, digits, ~ _ . -"
        required
        value={name}
        onChange={(event) => setName(event.currentTarget.value)}
        error={fieldError(create.error, 'name')}
        data-autofocus
      />
      <TextInput
        label="Description"
        value={description}
        onChange={(event) => setDescription(event.currentTarget.value)}
      />
      <Text fw={600} size="sm">
        Parameters
      </Text>
      {parameters.length === 0 ? (
        <Text size="sm" c="dimmed">
          None: the strategy takes no settings.
        </Text>
      ) : null}
      {parameters.map((parameter, index) => (
        <Group key={index} align="flex-end" role="group" aria-label={`Parameter ${index + 1}`}>
          <TextInput
            label="Parameter name"
            value={parameter.name}
            onChange={(event) => update(index, { name: event.currentTarget.value })}
          />
          <NativeSelect
            label="Type"
            value={parameter.type}
            onChange={(event) => update(index, { type: event.currentTarget.value as Parameter['type'] })}
            data={TYPES}
          />
          <TextInput
            label="Help text"
            value={parameter.description ?? ''}
            onChange={(event) => update(index, { description: event.currentTarget.value })}
            style={{ flex: 1 }}
          />
          <Checkbox
            label="Required"
            checked={parameter.required ?? false}
            onChange={(event) => update(index, { required: event.currentTarget.checked })}
            mb={8}
          />
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`Remove parameter ${index + 1}`}
            onClick={() => setParameters((list) => list.filter((_, at) => at !== index))}
          >
            ×
          </ActionIcon>
        </Group>
      ))}
      <Group>
        <Button
          variant="light"
          size="compact-sm"
          onClick={() =>
            setParameters((list) => [...list, { name: '', type: 'string', description: '', required: false }])
          }
        >
          Add parameter
        </Button>
      </Group>
    </FormModal>
  );
}

/** Strategies: the built-in ones, and custom ones with the parameters their SDK implementation reads. */
export default function StrategiesPage() {
  const can = usePermission();
  const strategies = useStrategyDefinitions();
  const [creating, setCreating] = useState(false);
  const deprecate = useDeprecateStrategyDefinition();
  const remove = useDeleteStrategyDefinition();
  return (
    <Stack>
      <CreateButton permission={can('CREATE_STRATEGY')} onClick={() => setCreating(true)}>
        New strategy
      </CreateButton>
      <ListTable
        query={strategies}
        label="Strategies"
        empty="No strategies"
        columns={['Name', 'Parameters', 'State', '']}
        rowKey={(strategy) => strategy.name}
        cells={(strategy) => (
          <>
            <Table.Td>
              <Text fw={600} size="sm">
                {strategy.displayName ?? strategy.name}
              </Text>
              <Text size="xs" c="dimmed">
                {strategy.description ?? ''}
              </Text>
            </Table.Td>
            <Table.Td>
              <Text size="sm">
                {strategy.parameters
                  .map((parameter) => `${parameter.name} (${parameter.type}${parameter.required ? ', required' : ''})`)
                  .join(', ')}
              </Text>
            </Table.Td>
            <Table.Td>
              {strategy.deprecated ? (
                <Badge color="gray" variant="light">
                  deprecated
                </Badge>
              ) : strategy.editable ? (
                <Badge variant="light">custom</Badge>
              ) : (
                <Badge color="gray" variant="outline">
                  built-in
                </Badge>
              )}
            </Table.Td>
            <Table.Td>
              {strategy.editable ? (
                <Group gap={4} wrap="nowrap">
                  <Button
                    size="compact-sm"
                    variant="subtle"
                    onClick={() => deprecate.mutate({ name: strategy.name, deprecated: !strategy.deprecated })}
                    disabled={!can('UPDATE_STRATEGY').allowed}
                  >
                    {strategy.deprecated ? 'Reactivate' : 'Deprecate'}
                  </Button>
                  <DeleteButton
                    what={`the strategy ${strategy.name}`}
                    disabled={!can('DELETE_STRATEGY').allowed}
                    title="Delete this strategy?"
                    message="Flags using it keep it until it is removed from them; it can no longer be added."
                    onConfirm={() => remove.mutate(strategy.name)}
                  />
                </Group>
              ) : null}
            </Table.Td>
          </>
        )}
      />
      {creating ? <NewStrategyModal onClose={() => setCreating(false)} /> : null}
    </Stack>
  );
}
