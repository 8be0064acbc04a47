import { Alert, Button, Code, CopyButton, Group, Stack, Switch, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { usePermission } from '../api/session.ts';
import { patBody, useCreateOwnToken } from '../personal-access-tokens/pat-queries.ts';
import { SecretOnce } from '../ui/secret-once.tsx';
import { agentSnippets } from './agent-snippets.ts';
import { useRemoteMcp, useSetRemoteMcp } from './mcp-queries.ts';

const TOKEN_PLACEHOLDER = '<your token>';

/**
 * How to connect a coding agent (Claude Code, Cursor, VS Code...) to Bunting's MCP server: its address, a token made
 * for it, and the configuration to paste. Clients that sign in with OAuth need only the address.
 */
export function ConnectAgent() {
  const settings = useRemoteMcp();
  const admin = usePermission()('ADMIN');
  const toggle = useSetRemoteMcp();
  const create = useCreateOwnToken();
  const [made, setMade] = useState<string | null>(null);
  const origin = window.location.origin;
  const enabled = settings.data?.enabled ?? true;
  const makeToken = () =>
    create.mutate(patBody(`Coding agent ${new Date().toISOString().slice(0, 16).replace('T', ' ')}`, 90), {
      onSuccess: (pat) => setMade(pat.secret ?? null),
    });

  return (
    <Stack>
      <Text size="sm">
        Coding agents can list, create, roll out and clean up flags, run release plans and change requests through
        Bunting's MCP server, acting as you with your permissions. The event log names the agent's client on every
        change it makes.
      </Text>
      {enabled ? null : (
        <Alert color="gray" role="status">
          The remote MCP server is turned off on this installation; the local package (npx @bunting/mcp) still works.
        </Alert>
      )}
      <Group gap="xs">
        <Text size="sm">Server address</Text>
        <Code>{`${origin}/api/admin/mcp`}</Code>
        <CopyButton value={`${origin}/api/admin/mcp`}>
          {({ copied, copy }) => (
            <Button size="compact-sm" variant="light" onClick={copy}>
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Text size="sm">
        Clients that sign in with OAuth (Claude Code, VS Code and others) need only this address: they open a page here
        to ask for your consent, and get a token lasting a day.
      </Text>
      <Group>
        <Button variant="light" onClick={makeToken} loading={create.isPending}>
          Create a token for an agent
        </Button>
        <Text size="xs" c="dimmed">
          A personal access token lasting 90 days; delete it below to cut the agent off.
        </Text>
      </Group>
      {create.error ? (
        <Alert color="red" role="alert">
          Could not create the token.
        </Alert>
      ) : null}
      {made ? <SecretOnce label="Agent token" secret={made} /> : null}
      {agentSnippets(origin, made ?? TOKEN_PLACEHOLDER).map((snippet) => (
        <Stack key={snippet.client} gap={4}>
          <Title order={3} size="h6">
            {snippet.client}
          </Title>
          <Code
            block
            tabIndex={0}
            aria-label={`Configuration for ${snippet.client}`}
            style={snippet.format === 'shell' ? { whiteSpace: 'pre-wrap', wordBreak: 'break-all' } : undefined}
          >
            {snippet.text}
          </Code>
        </Stack>
      ))}
      {admin.allowed ? (
        <Switch
          label="Remote MCP server on for this installation"
          checked={enabled}
          disabled={settings.isPending || toggle.isPending}
          onChange={(event) => toggle.mutate(event.currentTarget.checked)}
        />
      ) : null}
    </Stack>
  );
}
