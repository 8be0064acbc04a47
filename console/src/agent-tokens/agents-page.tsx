import { Stack, Text, Title } from '@mantine/core';
import { ListTable } from '../ui/list-table.tsx';
import { AgentCells } from './connected-agents.tsx';
import { useAllAgents, useDisconnectAgent } from './agent-token-queries.ts';

/** Every agent connected on this installation, by person: for an admin answering "what can act here, as whom?". */
export default function AgentsPage() {
  const agents = useAllAgents();
  const disconnect = useDisconnectAgent();
  return (
    <Stack>
      <Title order={2}>Connected agents</Title>
      <Text size="sm">
        Coding agents people connected through the MCP server's sign-in. Each acts as its person, within what they
        allowed, until the time shown.
      </Text>
      <ListTable
        query={agents}
        label="Connected agents"
        empty="No agent is connected."
        columns={['Agent', 'Person', 'May', 'Until', 'Last used', '']}
        rowsOf={(data) => data.agents}
        rowKey={(agent) => agent.id}
        cells={(agent) => <AgentCells agent={agent} showPerson onDisconnect={() => disconnect.mutate(agent.id)} />}
      />
    </Stack>
  );
}
