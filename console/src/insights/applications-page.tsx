import { Anchor, Badge, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { segment } from '../ui/addresses.ts';
import { useApplicationOverview, useApplications } from './insight-queries.ts';
import { Empty, Failed, Loading } from '../ui/states.tsx';

/** The applications SDKs registered (Unleash's /applications), searchable. */
export function ApplicationsPage() {
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query, 250);
  const applications = useApplications(debounced);
  return (
    <Stack>
      <Title order={1}>Applications</Title>
      <TextInput
        label="Search applications"
        value={query}
        onChange={(event) => setQuery(event.currentTarget.value)}
        maw={320}
      />
      {applications.isPending ? (
        <Loading label="Loading applications" />
      ) : applications.isError ? (
        <Failed error={applications.error} />
      ) : applications.data.applications.length === 0 ? (
        <Empty title="No applications yet">An application appears here once its SDK registers or sends metrics.</Empty>
      ) : (
        <Table aria-label="Applications">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Description</Table.Th>
              <Table.Th>Projects</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {applications.data.applications.map((application) => (
              <Table.Tr key={application.appName}>
                <Table.Td>
                  <Anchor component={Link} to={`/applications/${segment(application.appName)}`}>
                    {application.appName}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{application.description ?? ''}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{(application.usage ?? []).map((usage) => usage.project).join(', ')}</Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

/** One application: where its instances run, their SDKs, and what needs attention (outdated SDKs, unknown flags). */
export function ApplicationPage() {
  const appName = useParams().appName ?? '';
  const overview = useApplicationOverview(appName);
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        <Anchor component={Link} to="/applications">
          Applications
        </Anchor>{' '}
        / {appName}
      </Text>
      <Title order={1}>{appName}</Title>
      {overview.isPending ? (
        <Loading label="Loading the application" />
      ) : overview.isError ? (
        <Failed error={overview.error} />
      ) : (
        <>
          <Text size="sm">
            {overview.data.featureCount} flags reported, in {overview.data.projects.join(', ') || 'no known project'}.
          </Text>
          {overview.data.environments.map((environment) => (
            <Paper key={environment.name} withBorder p="md">
              <Group justify="space-between">
                <Title order={2} size="h4">
                  {environment.name}
                </Title>
                <Text size="sm" c="dimmed">
                  {environment.lastSeen ? `last seen ${new Date(environment.lastSeen).toLocaleString()}` : ''}
                </Text>
              </Group>
              <Table aria-label={`In ${environment.name}`}>
                <Table.Tbody>
                  <Table.Tr>
                    <Table.Th scope="row">Instances</Table.Th>
                    <Table.Td>{environment.instanceCount}</Table.Td>
                  </Table.Tr>
                  <Table.Tr>
                    <Table.Th scope="row">SDKs</Table.Th>
                    <Table.Td>
                      {environment.sdks.map((sdk) => (
                        <Badge
                          key={sdk}
                          mr={4}
                          variant="light"
                          color={environment.issues.outdatedSdks.includes(sdk) ? 'orange' : 'gray'}
                        >
                          {sdk}
                          {environment.issues.outdatedSdks.includes(sdk) ? ' (outdated)' : ''}
                        </Badge>
                      ))}
                    </Table.Td>
                  </Table.Tr>
                  <Table.Tr>
                    <Table.Th scope="row">Flags it asks for that do not exist</Table.Th>
                    <Table.Td>{environment.issues.missingFeatures.join(', ') || 'none'}</Table.Td>
                  </Table.Tr>
                </Table.Tbody>
              </Table>
            </Paper>
          ))}
        </>
      )}
    </Stack>
  );
}
