import { Button, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Permission, type Tag } from '@bunting/contracts';
import { fieldError } from '../api/http.ts';
import { usePermission } from '../api/session.ts';
import { useAddFeatureTag, useRemoveFeatureTag, useTagTypes } from '../tags/tag-queries.ts';
import { Guarded } from '../ui/guarded.tsx';
import { RemovablePill } from '../ui/removable-pill.tsx';

/** A flag's tags: shown as type:value, added and removed by whoever may update the flag. */
export function TagsSection({ project, flag, tags }: { project: string; flag: string; tags: Tag[] }) {
  const can = usePermission();
  const update = can(Permission.UPDATE_FEATURE, { project });
  const tagTypes = useTagTypes();
  const [type, setType] = useState<string | null>('simple');
  const [value, setValue] = useState('');
  const add = useAddFeatureTag(flag);
  const drop = useRemoveFeatureTag(flag);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!type || !value.trim()) return;
    add.mutate({ type, value: value.trim() }, { onSuccess: () => setValue('') });
  };
  return (
    <Stack gap="xs" component="section" aria-labelledby="tags-heading">
      <Title order={2} size="h4" id="tags-heading">
        Tags
      </Title>
      {tags.length === 0 ? (
        <Text size="sm" c="dimmed">
          No tags.
        </Text>
      ) : (
        <Group gap={6}>
          {tags.map((tag) => (
            <RemovablePill
              key={`${tag.type}:${tag.value}`}
              size="md"
              onRemove={update.allowed ? () => drop.mutate(tag) : undefined}
              removeLabel={`Remove tag ${tag.type}:${tag.value}`}
            >
              {tag.type}:{tag.value}
            </RemovablePill>
          ))}
        </Group>
      )}
      <form onSubmit={submit}>
        <Group align="flex-end" gap="xs">
          <Select
            label="Tag type"
            w={140}
            allowDeselect={false}
            data={(tagTypes.data ?? []).map((tagType) => tagType.name)}
            value={type}
            onChange={setType}
            disabled={!update.allowed}
          />
          <TextInput
            label="Tag value"
            w={180}
            value={value}
            onChange={(event) => setValue(event.currentTarget.value)}
            disabled={!update.allowed}
            error={fieldError(add.error, 'value')}
          />
          <Guarded reason={update.reason}>
            <Button type="submit" variant="light" disabled={!update.allowed || !value.trim()} loading={add.isPending}>
              Add tag
            </Button>
          </Guarded>
        </Group>
      </form>
    </Stack>
  );
}
