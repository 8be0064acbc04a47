import { Button, Group, Pagination, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { Empty, Failed, Loading } from '../ui/states.tsx';
import {
  ACCESS_PER_PAGE,
  exportAddress,
  useAccessHistory,
  type AccessEntry,
  type AccessFilters,
} from './access-history-queries.ts';

const METHODS: { value: NonNullable<AccessFilters['method']>; label: string }[] = [
  { value: 'password', label: 'Password' },
  { value: 'oidc', label: 'OpenID Connect' },
  { value: 'saml', label: 'SAML' },
  { value: 'scim', label: 'SCIM' },
  { value: 'oauth', label: 'OAuth (agents)' },
  { value: 'personal-access-token', label: 'Personal access token' },
  { value: 'api-token', label: 'API token' },
];

const ACTIONS: Record<AccessEntry['action'], string> = {
  'sign-in': 'Signed in',
  deactivated: 'Account deactivated',
  granted: 'Agent granted access',
  created: 'Token created',
  'revoked-use': 'Revoked token used',
};

/** What happened, in words: "Signed in", or "Sign-in refused" when it failed. */
function whatHappened(entry: AccessEntry): string {
  if (entry.outcome === 'success') return ACTIONS[entry.action];
  return entry.action === 'sign-in'
    ? 'Sign-in refused'
    : entry.action === 'granted'
      ? 'Agent refused'
      : ACTIONS[entry.action];
}

/**
 * Sign-in history (Unleash's login history): every attempt to sign in and every credential granted, refused or
 * taken away, newest first; filters, and the same as CSV for a spreadsheet or an auditor.
 */
export default function AccessHistoryPage() {
  const [user, setUser] = useState('');
  const [method, setMethod] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [settledUser] = useDebouncedValue(user.trim(), 300);
  const filters: AccessFilters = {
    ...(settledUser ? { user: settledUser } : {}),
    ...(method ? { method: method as AccessFilters['method'] } : {}),
    ...(outcome ? { outcome: outcome as AccessFilters['outcome'] } : {}),
  };
  const history = useAccessHistory(filters, page);
  const total = history.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / ACCESS_PER_PAGE));
  return (
    <Stack>
      <Title order={2}>Sign-in history</Title>
      <Text size="sm" c="dimmed">
        Who signed in or tried to, how, from which address and with what browser or tool; tokens made, agents given
        access, accounts a SCIM client deactivated, and revoked tokens used again. Kept for the installation's
        configured time (90 days unless set otherwise), and sent to the audit integrations that take it.
      </Text>
      <Group align="flex-end" role="search" aria-label="Filter the sign-in history">
        <TextInput
          label="User"
          description="Username, e-mail or id"
          w={220}
          value={user}
          onChange={(event) => {
            setUser(event.currentTarget.value);
            setPage(1);
          }}
        />
        <Select
          label="Method"
          clearable
          w={220}
          data={METHODS}
          value={method}
          onChange={(value) => {
            setMethod(value);
            setPage(1);
          }}
        />
        <Select
          label="Outcome"
          clearable
          w={160}
          data={[
            { value: 'success', label: 'Succeeded' },
            { value: 'failure', label: 'Failed' },
          ]}
          value={outcome}
          onChange={(value) => {
            setOutcome(value);
            setPage(1);
          }}
        />
        <Button component="a" href={exportAddress(filters)} variant="light" download>
          Download CSV
        </Button>
      </Group>
      {history.isPending ? (
        <Loading label="Loading the sign-in history" />
      ) : history.isError ? (
        <Failed error={history.error} />
      ) : history.data.entries.length === 0 ? (
        <Empty title="Nothing matches" />
      ) : (
        <>
          <Text size="sm" c="dimmed">
            {total} entr{total === 1 ? 'y' : 'ies'}
          </Text>
          <Table.ScrollContainer minWidth={900}>
            <Table aria-label="Sign-in history" striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>When</Table.Th>
                  <Table.Th>Who</Table.Th>
                  <Table.Th>What happened</Table.Th>
                  <Table.Th>How</Table.Th>
                  <Table.Th>Details</Table.Th>
                  <Table.Th>From</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {history.data.entries.map((entry) => (
                  <Table.Tr key={entry.id}>
                    <Table.Td>
                      <Text size="sm">{new Date(entry.at).toLocaleString()}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">
                        {entry.name ?? (entry.userId === null ? 'unknown' : `user #${entry.userId}`)}
                      </Text>
                      {entry.userId === null && entry.action === 'sign-in' ? (
                        <Text size="xs" c="dimmed">
                          no such account
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" fw={600} c={entry.outcome === 'success' ? '#1b5e20' : '#b71c1c'}>
                        {entry.outcome === 'success' ? '✓ ' : '✗ '}
                        {whatHappened(entry)}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{METHODS.find((one) => one.value === entry.method)?.label ?? entry.method}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{entry.detail ?? ''}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{entry.address ?? ''}</Text>
                      <Text size="xs" c="dimmed" lineClamp={1} title={entry.userAgent ?? undefined}>
                        {entry.userAgent ?? ''}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {pages > 1 ? <Pagination total={pages} value={page} onChange={setPage} aria-label="Pages" /> : null}
        </>
      )}
    </Stack>
  );
}
