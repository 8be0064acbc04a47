import { Alert, Button, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { messageOf } from '../api/http.ts';
import { Loading } from '../ui/states.tsx';
import { useConsentRequest, useDecideConsent } from './mcp-queries.ts';

/**
 * Where an MCP client's OAuth sign-in lands: the signed-in person allows or denies it, and is sent back to the
 * client with a code (or the refusal).
 */
export default function ConsentPage() {
  const [params] = useSearchParams();
  const id = params.get('request') ?? '';
  const request = useConsentRequest(id);
  const decide = useDecideConsent(id);
  const answer = (allow: boolean) => decide.mutate(allow, { onSuccess: (result) => window.location.assign(result.redirectTo) });

  if (request.isPending) return <Loading label="Loading the sign-in request" />;
  return (
    <Center mih="60vh">
      <Paper withBorder p="xl" maw={520}>
        {request.isError ? (
          <Stack>
            <Title order={1} size="h3">Connect a coding agent</Title>
            <Alert color="red" role="alert">{messageOf(request.error)}</Alert>
          </Stack>
        ) : (
          <Stack>
            <Title order={1} size="h3">Let {request.data.clientName} act as you?</Title>
            <Text>
              {request.data.clientName} asks to use Bunting as you, with your permissions, for {request.data.tokenHours} hours. Every change it makes is
              recorded in the event log under your name, naming the agent.
            </Text>
            <Text size="sm" c="dimmed">You will be sent back to {request.data.redirectHost}.</Text>
            {decide.error ? <Alert color="red" role="alert">{messageOf(decide.error)}</Alert> : null}
            <Group>
              <Button onClick={() => answer(true)} loading={decide.isPending && decide.variables === true}>Allow</Button>
              <Button variant="default" onClick={() => answer(false)} loading={decide.isPending && decide.variables === false}>Deny</Button>
            </Group>
          </Stack>
        )}
      </Paper>
    </Center>
  );
}
