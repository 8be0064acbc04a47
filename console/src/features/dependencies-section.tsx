import { Button, Group, MultiSelect, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { Permission, type Dependency } from '@bunting/contracts';
import { usePermission } from '../api/session.ts';
import {
  useAddDependency,
  useParentCandidates,
  useParentVariants,
  useRemoveDependency,
} from '../dependencies/dependency-queries.ts';
import { flagPage } from '../ui/addresses.ts';
import { Guarded } from '../ui/guarded.tsx';

/** The flags this one depends on: it is only on where its parent is on (or off), with one of the parent's variants if chosen. */
export function DependenciesSection({
  project,
  flag,
  dependencies,
  dependents,
}: {
  project: string;
  flag: string;
  dependencies: Dependency[];
  dependents: string[];
}) {
  const can = usePermission();
  const allowed = can(Permission.UPDATE_FEATURE_DEPENDENCY, { project });
  const [search, setSearch] = useState('');
  const [parent, setParent] = useState<string | null>(null);
  const [enabled, setEnabled] = useState<string>('true');
  const [variants, setVariants] = useState<string[]>([]);
  const candidates = useParentCandidates(project, flag, search);
  const parentVariants = useParentVariants(project, parent);
  const add = useAddDependency(project, flag);
  const drop = useRemoveDependency(project, flag);
  const submit = () => {
    if (!parent) return;
    add.mutate(
      { feature: parent, enabled: enabled === 'true', ...(variants.length > 0 ? { variants } : {}) },
      {
        onSuccess: () => {
          setParent(null);
          setVariants([]);
        },
      },
    );
  };
  return (
    <Stack gap="xs" component="section" aria-labelledby="dependencies-heading">
      <Title order={2} size="h4" id="dependencies-heading">
        Dependencies
      </Title>
      {dependencies.length === 0 ? (
        <Text size="sm" c="dimmed">
          Depends on no other flag.
        </Text>
      ) : (
        <Table aria-label="Parent flags" withRowBorders={false} verticalSpacing={2}>
          <Table.Tbody>
            {dependencies.map((dependency) => (
              <Table.Tr key={dependency.feature}>
                <Table.Td>
                  <Link to={flagPage(project, dependency.feature)}>{dependency.feature}</Link>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">
                    {dependency.enabled ? 'must be on' : 'must be off'}
                    {dependency.variants?.length ? ` with ${dependency.variants.join(' or ')}` : ''}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    color="red"
                    disabled={!allowed.allowed}
                    onClick={() => drop.mutate(dependency.feature)}
                    aria-label={`Remove dependency on ${dependency.feature}`}
                  >
                    Remove
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {dependents.length > 0 ? (
        <Text size="sm" c="dimmed">
          Flags depending on this one: {dependents.join(', ')}. A flag with children cannot have a parent.
        </Text>
      ) : (
        <Group align="flex-end" gap="xs">
          <Select
            label="Parent flag"
            w={220}
            searchable
            clearable
            data={candidates.data ?? []}
            value={parent}
            onChange={setParent}
            searchValue={search}
            onSearchChange={setSearch}
            nothingFoundMessage="No flag by that name"
            disabled={!allowed.allowed}
          />
          <Select
            label="When the parent is"
            w={160}
            allowDeselect={false}
            data={[
              { value: 'true', label: 'on' },
              { value: 'false', label: 'off' },
            ]}
            value={enabled}
            onChange={(value) => setEnabled(value ?? 'true')}
            disabled={!allowed.allowed}
          />
          {enabled === 'true' && (parentVariants.data ?? []).length > 0 ? (
            <MultiSelect
              label="With variant"
              w={200}
              data={parentVariants.data ?? []}
              value={variants}
              onChange={setVariants}
              clearable
            />
          ) : null}
          <Guarded reason={allowed.reason}>
            <Button variant="light" disabled={!allowed.allowed || !parent} loading={add.isPending} onClick={submit}>
              Add dependency
            </Button>
          </Guarded>
        </Group>
      )}
    </Stack>
  );
}
