import { Button, ColorInput, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { fieldError } from '../api/http.ts';
import { usePermission } from '../api/session.ts';
import { DeleteButton } from '../ui/delete-button.tsx';
import { FormError } from '../ui/form-modal.tsx';
import { ListTable } from '../ui/list-table.tsx';
import { useCreateTagType, useDeleteTagType, useTagTypes } from './tag-queries.ts';

/** Tag types: the kinds of tag flags carry (simple, or your own, with a colour). */
export default function TagTypesPage() {
  const can = usePermission();
  const tagTypes = useTagTypes();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [color, setColor] = useState('');
  const create = useCreateTagType();
  const deleteType = useDeleteTagType();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = {
      name: name.trim(),
      ...(description.trim() ? { description: description.trim() } : {}),
      ...(color ? { color } : {}),
    };
    create.mutate(body, {
      onSuccess: () => {
        setName('');
        setDescription('');
        setColor('');
      },
    });
  };
  return (
    <Stack>
      {can('CREATE_TAG_TYPE').allowed ? (
        <form onSubmit={submit} aria-label="Create a tag type">
          <Group align="flex-start" grow>
            <TextInput
              label="New tag type"
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              error={fieldError(create.error, 'name')}
            />
            <TextInput
              label="Description"
              value={description}
              onChange={(event) => setDescription(event.currentTarget.value)}
            />
            <ColorInput
              label="Colour"
              format="hex"
              value={color}
              onChange={setColor}
              eyeDropperButtonProps={{ 'aria-label': 'Pick a colour from the screen' }}
              error={fieldError(create.error, 'color')}
            />
          </Group>
          <FormError error={create.error} fields={['name', 'color']} />
          <Group justify="flex-end" mt="xs">
            <Button type="submit" loading={create.isPending} disabled={!name.trim()}>
              Create tag type
            </Button>
          </Group>
        </form>
      ) : null}
      <ListTable
        query={tagTypes}
        label="Tag types"
        empty="No tag types"
        columns={['Name', 'Description', 'Colour', '']}
        rowKey={(type) => type.name}
        cells={(type) => (
          <>
            <Table.Td>
              <Text fw={600} size="sm">
                {type.name}
              </Text>
            </Table.Td>
            <Table.Td>
              <Text size="sm">{type.description ?? ''}</Text>
            </Table.Td>
            <Table.Td>
              {type.color ? (
                <Group gap={6}>
                  <span
                    aria-hidden
                    style={{ display: 'inline-block', width: 14, height: 14, borderRadius: 3, background: type.color }}
                  />
                  <Text size="sm">{type.color}</Text>
                </Group>
              ) : null}
            </Table.Td>
            <Table.Td>
              <DeleteButton
                what={`the tag type ${type.name}`}
                disabled={!can('DELETE_TAG_TYPE').allowed}
                title="Delete this tag type?"
                message="Its tags are removed from every flag."
                onConfirm={() => deleteType.mutate(type.name)}
              />
            </Table.Td>
          </>
        )}
      />
    </Stack>
  );
}
