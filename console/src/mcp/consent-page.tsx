import { Alert, Button, Center, Group, List, Paper, Radio, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import type { AgentScope } from '@bunting/contracts';
import { messageOf } from '../api/http.ts';
import { SCOPE_WORDS } from '../agent-tokens/agent-scopes.ts';
import { Loading } from '../ui/states.tsx';
import { useConsentRequest, useDecideConsent } from './mcp-queries.ts';

/**
 * Where an MCP client's OAuth sign-in lands: the signed-in person sees what the client asks for, may give it less
 * (reading alone), and allows or denies it; they are then sent back to the client with a code (or the refusal).
 */
export default function ConsentPage() {
  const [params] = useSearchParams();
  const id = params.get('request') ?? '';
  const request = useConsentRequest(id);
  const decide = useDecideConsent(id);
  const [choice, setChoice] = useState<'read' | 'write' | null>(null);
  const answer = (allow: boolean, scopes?: AgentScope[]) =>
    decide.mutate(
      { allow, ...(scopes ? { scopes } : {}) },
      { onSuccess: (result) => window.location.assign(result.redirectTo) },
    );

  if (request.isPending) return <Loading label="Loading the sign-in request" />;
  if (request.isError) {
    return (
      <Center mih="60vh">
        <Paper withBorder p="xl" maw={560}>
          <Stack>
            <Title order={1} size="h3">
              Connect a coding agent
            </Title>
            <Alert color="red" role="alert">
              {messageOf(request.error)}
            </Alert>
          </Stack>
        </Paper>
      </Center>
    );
  }
  const { clientName, scopes: asked, tokenHours, redirectHost, resource } = request.data;
  const mayWrite = asked.includes('mcp:write');
  const chosen = choice ?? (mayWrite ? 'write' : 'read');
  const granted: AgentScope[] =
    chosen === 'write'
      ? ['mcp:read', 'mcp:write'].filter((scope): scope is AgentScope => asked.includes(scope as AgentScope))
      : ['mcp:read'];
  return (
    <Center mih="60vh">
      <Paper withBorder p="xl" maw={560}>
        <Stack>
          <Title order={1} size="h3">
            Let {clientName} act as you?
          </Title>
          <Text>
            {clientName} asks to use Bunting as you, through its MCP server, for {tokenHours} hours. It can do no more
            than you can, and every change it makes is recorded in the event log under your name, naming the agent.
          </Text>
          <Radio.Group
            label="What it may do"
            value={chosen}
            onChange={(value) => setChoice(value === 'write' ? 'write' : 'read')}
          >
            <Stack gap="xs" mt="xs">
              <Radio value="read" label="Read only" description={`It may ${SCOPE_WORDS['mcp:read']}.`} />
              {mayWrite ? (
                <Radio
                  value="write"
                  label="Read and change"
                  description={`It may also ${SCOPE_WORDS['mcp:write']}, as you could.`}
                />
              ) : null}
            </Stack>
          </Radio.Group>
          <List size="sm" c="dimmed">
            <List.Item>The token works only at {resource}: not in scripts, and it cannot make other tokens.</List.Item>
            <List.Item>You can disconnect it at any time on your profile page.</List.Item>
            <List.Item>You will be sent back to {redirectHost}.</List.Item>
          </List>
          {decide.error ? (
            <Alert color="red" role="alert">
              {messageOf(decide.error)}
            </Alert>
          ) : null}
          <Group>
            <Button
              onClick={() => answer(true, granted)}
              loading={decide.isPending && decide.variables?.allow === true}
            >
              Allow
            </Button>
            <Button
              variant="default"
              onClick={() => answer(false)}
              loading={decide.isPending && decide.variables?.allow === false}
            >
              Deny
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Center>
  );
}
