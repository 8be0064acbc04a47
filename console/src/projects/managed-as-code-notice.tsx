import { Alert, Anchor, Text } from '@mantine/core';
import { Link, useMatch } from 'react-router';
import { useManagedAsCode } from './project-queries.ts';

/** Where the repository is, as a link when it is an address or a GitHub-style `owner/name`. */
export function repositoryLink(repository: string): string | null {
  if (/^https?:\/\//.test(repository)) return repository;
  if (/^[\w.-]+\.[a-z]{2,}\/[\w./-]+$/i.test(repository)) return `https://${repository}`;
  return null;
}

/** On every page of a project managed as code: where to change it, since changes here are refused. */
export function ManagedAsCodeNotice() {
  const project = useMatch({ path: '/projects/:projectId', end: false })?.params.projectId ?? '';
  const settings = useManagedAsCode(project);
  const code = settings.data;
  if (!code?.enabled || !code.repository) return null;
  const link = repositoryLink(code.repository);
  return (
    <Alert color="grape" variant="light" role="status" aria-label="Managed as code" mb="md">
      <Text size="sm" span>
        This project is managed as code in{' '}
        {link ? (
          <Anchor href={link} target="_blank" rel="noreferrer" c="inherit" underline="always" fw={600}>
            {code.repository}
          </Anchor>
        ) : (
          <strong>{code.repository}</strong>
        )}
        {code.path ? (
          <>
            {' '}
            at <code>{code.path}</code>
          </>
        ) : null}
        . Change its flags and segments there: the pipeline applies them, and changes made here are refused.{' '}
        <Anchor
          component={Link}
          to={`/projects/${encodeURIComponent(project)}/settings/code`}
          c="inherit"
          underline="always"
        >
          Settings
        </Anchor>
      </Text>
    </Alert>
  );
}
