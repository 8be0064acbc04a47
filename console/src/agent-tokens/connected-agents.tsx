import { Badge, Stack, Table, Text } from '@mantine/core';
import type { AgentToken } from '@bunting/contracts';
import { DeleteButton } from '../ui/delete-button.tsx';
import { ListTable } from '../ui/list-table.tsx';
import { scopeSummary } from './agent-scopes.ts';
import { useDisconnectOwnAgent, useOwnAgents } from './agent-token-queries.ts';

/** An agent's row: what it is, what it may do, until when, and a way to cut it off. */
export function AgentCells({
  agent,
  onDisconnect,
  showPerson,
}: {
  agent: AgentToken;
  onDisconnect: () => void;
  showPerson?: boolean;
}) {
  return (
    <>
      <Table.Td>{agent.clientName}</Table.Td>
      {showPerson ? <Table.Td>{agent.userName}</Table.Td> : null}
      <Table.Td>
        <Badge variant="light" color={agent.scopes.includes('mcp:write') ? 'orange' : 'blue'}>
          {scopeSummary(agent.scopes)}
        </Badge>
      </Table.Td>
      <Table.Td>{new Date(agent.expiresAt).toLocaleString()}</Table.Td>
      <Table.Td>{agent.seenAt ? new Date(agent.seenAt).toLocaleString() : 'never'}</Table.Td>
      <Table.Td>
        <DeleteButton
          verb="Disconnect"
          what={`${agent.clientName}${showPerson ? ` of ${agent.userName}` : ''}`}
          title={`Disconnect ${agent.clientName}?`}
          message="Its token stops working at once; the agent has to ask again to be connected."
          onConfirm={onDisconnect}
        />
      </Table.Td>
    </>
  );
}

/** The profile's list of the agents this person let act for them through OAuth. */
export function ConnectedAgents() {
  const agents = useOwnAgents();
  const disconnect = useDisconnectOwnAgent();
  return (
    <Stack>
      <Text size="sm">
        Agents you allowed to use Bunting as you through the MCP server. Each token works only there, for the time
        shown.
      </Text>
      <ListTable
        query={agents}
        label="Connected agents"
        empty="No agent is connected."
        columns={['Agent', 'May', 'Until', 'Last used', '']}
        rowsOf={(data) => data.agents}
        rowKey={(agent) => agent.id}
        cells={(agent) => <AgentCells agent={agent} onDisconnect={() => disconnect.mutate(agent.id)} />}
      />
    </Stack>
  );
}
