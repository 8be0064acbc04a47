import {
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  MultiSelect,
  NativeSelect,
  Pagination,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { Permission, type FeatureSearchItem } from '@bunting/contracts';
import { segment } from '../ui/addresses.ts';
import { useTags } from '../tags/tag-queries.ts';
import { useFeatureTypes } from './feature-queries.ts';
import { usePermission } from '../api/session.ts';
import { useProject } from '../projects/project-queries.ts';
import { Guarded } from '../ui/guarded.tsx';
import { Empty, Failed, Loading } from '../ui/states.tsx';
import { CreateFlagModal } from './create-flag-modal.tsx';
import { EnvironmentSwitch, useEnvironmentToggles, useToggleReasons } from './environment-switch.tsx';
import { PAGE_SIZES, readFilters, searchQuery, writeFilters, type FlagFilters } from './flag-filters.ts';
import { useFlagSearch } from '../feature-state/flag-queries.ts';

const SORT_OPTIONS = [
  { value: 'createdAt:desc', label: 'Newest first' },
  { value: 'createdAt:asc', label: 'Oldest first' },
  { value: 'name:asc', label: 'Name A–Z' },
  { value: 'name:desc', label: 'Name Z–A' },
  { value: 'type:asc', label: 'Type' },
  { value: 'lastSeenAt:desc', label: 'Last seen' },
];

const formatDate = (value: string | null) => (value ? new Date(value).toLocaleDateString() : '—');

type RowProps = {
  project: string;
  flag: FeatureSearchItem;
  environments: string[];
  toggles: ReturnType<typeof useEnvironmentToggles>;
  reasons: Map<string, string | undefined>;
};

function FlagRow({ project, flag, environments, toggles, reasons }: RowProps) {
  const byName = new Map(flag.environments.map((environment) => [environment.name, environment]));
  return (
    <Table.Tr>
      <Table.Td>
        <Anchor
          component={Link}
          to={`/projects/${segment(project)}/features/${segment(flag.name)}`}
          fw={600}
          underline="hover"
        >
          {flag.name}
        </Anchor>
        {flag.description ? (
          <Text size="sm" c="dimmed" lineClamp={1}>
            {flag.description}
          </Text>
        ) : null}
      </Table.Td>
      <Table.Td>{flag.type}</Table.Td>
      <Table.Td>{formatDate(flag.createdAt)}</Table.Td>
      <Table.Td>
        <Group gap={4}>
          {flag.stale ? (
            <Badge color="orange" variant="light">
              stale
            </Badge>
          ) : null}
          {flag.archivedAt ? (
            <Badge color="gray" variant="light">
              archived
            </Badge>
          ) : null}
          {(flag.tags ?? []).slice(0, 3).map((tag) => (
            <Badge key={`${tag.type}:${tag.value}`} variant="outline" color="gray" tt="none">
              {tag.type}:{tag.value}
            </Badge>
          ))}
        </Group>
      </Table.Td>
      {environments.map((environment) => {
        const state = byName.get(environment);
        return (
          <Table.Td key={environment}>
            {state && !flag.archivedAt ? (
              <EnvironmentSwitch
                flag={flag.name}
                environment={environment}
                enabled={state.enabled}
                toggles={toggles}
                reason={reasons.get(environment)}
              />
            ) : (
              '—'
            )}
          </Table.Td>
        );
      })}
    </Table.Tr>
  );
}

export default function ProjectFlagsPage() {
  const { projectId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const filters = readFilters(params);
  const project = useProject(projectId);
  const types = useFeatureTypes();
  const tags = useTags();
  const search = useFlagSearch(searchQuery(projectId, filters));
  const can = usePermission();
  const create = can(Permission.CREATE_FEATURE, { project: projectId });
  const [creating, { open, close }] = useDisclosure(false);
  const [typed, setTyped] = useState(filters.query);

  const update = (change: Partial<FlagFilters>) =>
    setParams(writeFilters({ ...filters, page: 1, ...change }), { replace: true });
  const searchFor = useDebouncedCallback((query: string) => update({ query }), 250);
  // The columns come with the flags themselves, so the table does not wait for the project's details.
  const environments =
    search.data?.features[0]?.environments.map((environment) => environment.name) ?? project.data?.environments ?? [];
  const toggles = useEnvironmentToggles(projectId);
  const reasons = useToggleReasons(projectId, environments);

  if (project.isError) return <Failed error={project.error} />;
  const total = search.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / filters.pageSize));
  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <div>
          <Text size="sm" c="dimmed">
            <Anchor component={Link} to="/projects">
              Projects
            </Anchor>{' '}
            / {projectId}
          </Text>
          <Title order={1}>{project.data?.name ?? projectId}</Title>
        </div>
        <Group>
          <Button component={Link} to={`/projects/${segment(projectId)}/health`} variant="default">
            Status
          </Button>
          <Button component={Link} to={`/projects/${segment(projectId)}/change-requests`} variant="default">
            Change requests
          </Button>
          <Button component={Link} to={`/projects/${segment(projectId)}/settings/access`} variant="default">
            Access
          </Button>
          <Button component={Link} to={`/projects/${segment(projectId)}/settings/actions`} variant="default">
            Actions
          </Button>
          <Button component={Link} to={`/projects/${segment(projectId)}/settings/code`} variant="default">
            As code
          </Button>
          <Guarded reason={create.reason}>
            <Button onClick={open} disabled={!create.allowed}>
              New flag
            </Button>
          </Guarded>
        </Group>
      </Group>

      <Group align="flex-end" gap="sm" role="search" aria-label="Filter flags">
        <TextInput
          label="Search"
          placeholder="Name, description, tag or segment"
          w={240}
          value={typed}
          onChange={(event) => {
            setTyped(event.currentTarget.value);
            searchFor(event.currentTarget.value);
          }}
        />
        <MultiSelect
          label="Type"
          w={170}
          clearable
          data={(types.data ?? []).map((type) => ({ value: type.id, label: type.name }))}
          value={filters.types}
          onChange={(value) => update({ types: value })}
        />
        <MultiSelect
          label="Tag"
          w={180}
          clearable
          searchable
          data={(tags.data ?? []).map((tag) => `${tag.type}:${tag.value}`)}
          value={filters.tags}
          onChange={(value) => update({ tags: value })}
        />
        {/* Native selects: one choice each, nothing to search, and they cost the page almost nothing to draw. */}
        <NativeSelect
          label="State"
          w={110}
          value={filters.state}
          data={[
            { value: '', label: 'Any' },
            { value: 'active', label: 'Active' },
            { value: 'stale', label: 'Stale' },
          ]}
          onChange={(event) => update({ state: event.currentTarget.value as FlagFilters['state'] })}
        />
        <NativeSelect
          label="Environment"
          w={180}
          value={filters.status}
          data={[
            { value: '', label: 'Any' },
            ...environments.flatMap((environment) => [
              { value: `${environment}:enabled`, label: `On in ${environment}` },
              { value: `${environment}:disabled`, label: `Off in ${environment}` },
            ]),
          ]}
          onChange={(event) => update({ status: event.currentTarget.value })}
        />
        <NativeSelect
          label="Sort"
          w={140}
          value={`${filters.sortBy}:${filters.sortOrder}`}
          data={SORT_OPTIONS}
          onChange={(event) => {
            const [sortBy, sortOrder] = event.currentTarget.value.split(':');
            update({ sortBy: sortBy as FlagFilters['sortBy'], sortOrder: sortOrder as FlagFilters['sortOrder'] });
          }}
        />
        <Checkbox
          label="Archived"
          checked={filters.archived}
          onChange={(event) => update({ archived: event.currentTarget.checked })}
          mb={8}
        />
      </Group>

      {search.isPending ? (
        <Loading label="Loading flags" />
      ) : search.isError ? (
        <Failed error={search.error} />
      ) : search.data.features.length === 0 ? (
        <Empty title={params.size > 0 ? 'No flag matches' : 'No flags yet'}>
          {params.size > 0 ? 'Try other filters.' : 'Create the first flag of this project.'}
        </Empty>
      ) : (
        <>
          <Table
            striped
            highlightOnHover
            fz="sm"
            aria-label={`Flags of ${project.data?.name ?? projectId}`}
            aria-busy={search.isFetching}
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Type</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Tags and state</VisuallyHidden>
                </Table.Th>
                {environments.map((environment) => (
                  <Table.Th key={environment}>{environment}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {search.data.features.map((flag) => (
                <FlagRow
                  key={flag.name}
                  project={projectId}
                  flag={flag}
                  environments={environments}
                  toggles={toggles}
                  reasons={reasons}
                />
              ))}
            </Table.Tbody>
          </Table>
          <Group justify="space-between">
            <Text size="sm" c="dimmed" aria-live="polite">
              {(filters.page - 1) * filters.pageSize + 1}–{Math.min(total, filters.page * filters.pageSize)} of {total}{' '}
              flags
            </Text>
            <Group gap="sm">
              <NativeSelect
                aria-label="Flags per page"
                w={90}
                value={String(filters.pageSize)}
                data={PAGE_SIZES.map(String)}
                onChange={(event) => update({ pageSize: Number(event.currentTarget.value) })}
              />
              <Pagination
                total={pages}
                value={filters.page}
                onChange={(page) => update({ page })}
                getControlProps={(control) => ({ 'aria-label': `${control} page` })}
                getItemProps={(page) => ({ 'aria-label': `Page ${page}` })}
              />
            </Group>
          </Group>
        </>
      )}
      {creating ? <CreateFlagModal project={projectId} opened onClose={close} /> : null}
    </Stack>
  );
}
