import { Anchor, Badge, Button, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { segment } from '../ui/addresses.ts';
import { useContextFields } from '../context-fields/context-field-queries.ts';
import { useSegments } from '../segments/segment-queries.ts';
import { useStrategyDefinitions } from '../strategy-definitions/strategy-definition-queries.ts';
import { useProject } from '../projects/project-queries.ts';
import { Failed, Loading } from '../ui/states.tsx';
import { CodeReferencesSection } from '../code-references/code-references-section.tsx';
import { DependenciesSection } from './dependencies-section.tsx';
import { EnvironmentPanel } from './environment-panel.tsx';
import { FlagActions } from './flag-actions.tsx';
import { useFlag } from '../feature-state/flag-queries.ts';
import { TagsSection } from './tags-section.tsx';
import { FlagImpactSection } from '../impact-metrics/flag-impact-section.tsx';

/** One flag: its switches and strategies per environment, variants, tags and dependencies, kept current live. */
export default function FlagPage() {
  const { projectId = '', featureName = '' } = useParams();
  const flag = useFlag(projectId, featureName);
  const project = useProject(projectId);
  const definitions = useStrategyDefinitions();
  const fields = useContextFields(projectId);
  const segments = useSegments();

  if (flag.isPending) return <Loading label="Loading flag" />;
  if (flag.isError) return <Failed error={flag.error} />;
  const feature = flag.data;
  const order = project.data?.environments ?? feature.environments.map((environment) => environment.name);
  const environments = [...feature.environments].sort(
    (a, b) => order.indexOf(a.name) - order.indexOf(b.name) || a.sortOrder - b.sortOrder,
  );
  const projectPath = `/projects/${segment(projectId)}`;
  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <div>
          <Text size="sm" c="dimmed">
            <Anchor component={Link} to="/projects">
              Projects
            </Anchor>{' '}
            /{' '}
            <Anchor component={Link} to={projectPath}>
              {project.data?.name ?? projectId}
            </Anchor>
          </Text>
          <Group gap="sm">
            <Title order={1} ff="monospace">
              {feature.name}
            </Title>
            <Badge variant="light">{feature.type}</Badge>
            {feature.stale ? <Badge color="orange">stale</Badge> : null}
            {feature.archived ? <Badge color="gray">archived</Badge> : null}
          </Group>
          {feature.description ? <Text c="dimmed">{feature.description}</Text> : null}
        </div>
        <Group gap="xs">
          <Button component={Link} variant="default" to={`${projectPath}/features/${segment(feature.name)}/metrics`}>
            Metrics
          </Button>
          <Button
            component={Link}
            variant="default"
            to={`${projectPath}/features/${segment(feature.name)}/experiments`}
          >
            Experiments
          </Button>
          <Button component={Link} variant="default" to={`${projectPath}/features/${segment(feature.name)}/history`}>
            History
          </Button>
          <FlagActions flag={feature} />
        </Group>
      </Group>

      <Stack gap="md">
        {environments.map((state) => (
          <EnvironmentPanel
            key={state.name}
            project={projectId}
            flag={feature.name}
            archived={feature.archived}
            state={state}
            environments={environments.map((environment) => environment.name)}
            definitions={definitions.data ?? []}
            fields={fields.data ?? []}
            segments={segments.data ?? []}
          />
        ))}
      </Stack>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl">
        <TagsSection project={projectId} flag={feature.name} tags={feature.tags ?? []} />
        <DependenciesSection
          project={projectId}
          flag={feature.name}
          dependencies={feature.dependencies}
          dependents={feature.children}
        />
      </SimpleGrid>

      <CodeReferencesSection project={projectId} flag={feature.name} />

      <FlagImpactSection project={projectId} flag={feature.name} />
    </Stack>
  );
}
