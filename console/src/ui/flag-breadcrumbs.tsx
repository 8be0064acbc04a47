import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { flagPage, projectPage } from './addresses.ts';

/** Projects / project / flag: where a page about one flag sits. */
export function FlagBreadcrumbs({ projectId, featureName }: { projectId: string; featureName: string }) {
  return (
    <Text size="sm" c="dimmed">
      <Anchor component={Link} to="/projects">
        Projects
      </Anchor>{' '}
      /{' '}
      <Anchor component={Link} to={projectPage(projectId)}>
        {projectId}
      </Anchor>
      {' / '}
      <Anchor component={Link} to={flagPage(projectId, featureName)}>
        {featureName}
      </Anchor>
    </Text>
  );
}
