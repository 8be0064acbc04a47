import { Anchor, Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link } from 'react-router';
import { usePermission } from '../api/session.ts';
import { Guarded } from '../ui/guarded.tsx';
import { Empty, Failed, Loading } from '../ui/states.tsx';
import { CreateProjectModal } from './create-project-modal.tsx';
import { useProjects } from './project-queries.ts';

function healthColor(health: number) {
  return health >= 75 ? 'green' : health >= 50 ? 'yellow' : 'red';
}

export default function ProjectsPage() {
  const projects = useProjects();
  const can = usePermission();
  const [creating, { open, close }] = useDisclosure(false);
  const create = can('CREATE_PROJECT');
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Projects</Title>
        <Guarded reason={create.reason}>
          <Button onClick={open} disabled={!create.allowed}>
            New project
          </Button>
        </Guarded>
      </Group>
      {projects.isPending ? (
        <Loading label="Loading projects" />
      ) : projects.isError ? (
        <Failed error={projects.error} />
      ) : projects.data.projects.length === 0 ? (
        <Empty title="No projects yet">Create one to start adding flags.</Empty>
      ) : (
        <Table striped highlightOnHover aria-label="Projects">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Project</Table.Th>
              <Table.Th>Id</Table.Th>
              <Table.Th ta="right">Flags</Table.Th>
              <Table.Th ta="right">Stale</Table.Th>
              <Table.Th ta="right">Health</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {projects.data.projects.map((project) => (
              <Table.Tr key={project.id}>
                <Table.Td>
                  <Anchor
                    component={Link}
                    to={`/projects/${encodeURIComponent(project.id)}`}
                    fw={600}
                    underline="hover"
                  >
                    {project.name}
                  </Anchor>
                  {project.description ? (
                    <Text size="sm" c="dimmed" lineClamp={1}>
                      {project.description}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td>
                  <Text size="sm" ff="monospace">
                    {project.id}
                  </Text>
                </Table.Td>
                <Table.Td ta="right">{project.featureCount}</Table.Td>
                <Table.Td ta="right">{project.staleFeatureCount + project.potentiallyStaleFeatureCount}</Table.Td>
                <Table.Td ta="right">
                  <Badge color={healthColor(project.health)} variant="light">
                    {project.health} %
                  </Badge>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {creating ? <CreateProjectModal opened onClose={close} /> : null}
    </Stack>
  );
}
