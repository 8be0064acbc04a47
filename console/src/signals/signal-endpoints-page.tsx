import { Button, Code, Group, Modal, Stack, Switch, Table, Text, TextInput, Textarea } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { fieldError } from '../api/http.ts';
import { usePermission } from '../api/session.ts';
import { DeleteButton } from '../ui/delete-button.tsx';
import { FormError } from '../ui/form-modal.tsx';
import { Guarded } from '../ui/guarded.tsx';
import { ListTable } from '../ui/list-table.tsx';
import { SecretOnce } from '../ui/secret-once.tsx';
import {
  useCreateSignalEndpoint,
  useCreateSignalToken,
  useDeleteSignalEndpoint,
  useDeleteSignalToken,
  useReceivedSignals,
  useSignalEndpoints,
  useSwitchSignalEndpoint,
  type SignalEndpointView,
} from './signal-queries.ts';

/** The address a sender posts to, as this browser reaches the instance. */
const senderUrl = (name: string) => `${window.location.origin}/api/signal-endpoint/${encodeURIComponent(name)}`;

function EndpointModal({ endpoint, onClose }: { endpoint: SignalEndpointView; onClose: () => void }) {
  const [tokenName, setTokenName] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  // Refreshed while open: a sender's signals appear without reloading.
  const signals = useReceivedSignals(endpoint.id);
  const createToken = useCreateSignalToken(endpoint.id);
  const deleteToken = useDeleteSignalToken(endpoint.id);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    createToken.mutate(tokenName.trim(), {
      onSuccess: (created) => {
        setSecret(created.token);
        setTokenName('');
      },
    });
  };
  return (
    <Modal opened onClose={onClose} title={`Signal endpoint ${endpoint.name}`} size="xl">
      <Stack>
        <Text size="sm">
          Senders post JSON to <Code>{senderUrl(endpoint.name)}</Code> with{' '}
          <Code>Authorization: Bearer &lt;token&gt;</Code>.
        </Text>
        <Stack gap={4}>
          <Text fw={600} size="sm">
            Tokens
          </Text>
          {endpoint.tokens.length === 0 ? (
            <Text size="sm" c="dimmed">
              No tokens yet: nobody can send signals here.
            </Text>
          ) : (
            <Table aria-label="Tokens">
              <Table.Tbody>
                {endpoint.tokens.map((token) => (
                  <Table.Tr key={token.id}>
                    <Table.Td>{token.name}</Table.Td>
                    <Table.Td>
                      <Text size="xs">{new Date(token.createdAt).toLocaleString()}</Text>
                    </Table.Td>
                    <Table.Td>
                      <DeleteButton
                        what={`the token ${token.name}`}
                        title="Delete this token?"
                        message={`Senders using ${token.name} are refused from now on.`}
                        onConfirm={() => deleteToken.mutate(token.id)}
                      />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          {secret ? <SecretOnce label="Signal token" secret={secret} /> : null}
          <form onSubmit={submit}>
            <Group align="flex-end">
              <TextInput
                label="New token"
                placeholder="e.g. alerting"
                value={tokenName}
                onChange={(event) => setTokenName(event.currentTarget.value)}
                error={fieldError(createToken.error, 'name')}
              />
              <Button type="submit" loading={createToken.isPending} disabled={!tokenName.trim()}>
                Create token
              </Button>
            </Group>
          </form>
          <FormError error={createToken.error} fields={['name']} />
        </Stack>
        <Stack gap={4}>
          <Text fw={600} size="sm">
            Received signals, newest first
          </Text>
          <ListTable
            query={signals}
            label="Received signals"
            empty="None yet"
            columns={['Received', 'Token', 'Payload']}
            rowsOf={(data) => data.signalEndpointSignals}
            rowKey={(signal) => signal.id}
            cells={(signal) => (
              <>
                <Table.Td>
                  <Text size="xs">{new Date(signal.createdAt).toLocaleString()}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{signal.tokenName ?? ''}</Text>
                </Table.Td>
                <Table.Td>
                  <Code block style={{ maxHeight: 160, overflow: 'auto' }}>
                    {JSON.stringify(signal.payload, null, 2)}
                  </Code>
                </Table.Td>
              </>
            )}
          />
        </Stack>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Done
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function NewEndpointForm() {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const create = useCreateSignalEndpoint();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { name: name.trim(), description: description.trim() || null },
      {
        onSuccess: () => {
          setName('');
          setDescription('');
        },
      },
    );
  };
  return (
    <form onSubmit={submit} aria-label="Create a signal endpoint">
      <Stack gap="xs">
        <Group align="flex-start" grow>
          <TextInput
            label="New signal endpoint"
            description="Letters, digits, _ and -; part of the senders' address"
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={fieldError(create.error, 'name')}
          />
          <Textarea
            label="Description"
            autosize
            minRows={1}
            value={description}
            onChange={(event) => setDescription(event.currentTarget.value)}
          />
        </Group>
        <FormError error={create.error} fields={['name']} />
        <Group justify="flex-end">
          <Button type="submit" loading={create.isPending} disabled={!name.trim()}>
            Create endpoint
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Signal endpoints (Unleash's signals): where outside systems send events, their tokens and what they sent. */
export default function SignalsPage() {
  const can = usePermission();
  const admin = can('ADMIN');
  const endpoints = useSignalEndpoints(admin.allowed);
  const [openId, setOpenId] = useState<number | null>(null);
  const toggle = useSwitchSignalEndpoint();
  const deleteEndpoint = useDeleteSignalEndpoint();
  if (!admin.allowed)
    return (
      <Guarded reason={admin.reason}>
        <Text>{admin.reason}</Text>
      </Guarded>
    );
  const open = endpoints.data?.signalEndpoints.find((endpoint) => endpoint.id === openId) ?? null;
  return (
    <Stack>
      <NewEndpointForm />
      <ListTable
        query={endpoints}
        label="Signal endpoints"
        empty="No signal endpoints yet"
        columns={['Name', 'Description', 'Tokens', 'Enabled', '']}
        rowsOf={(data) => data.signalEndpoints}
        rowKey={(endpoint) => endpoint.id}
        cells={(endpoint) => (
          <>
            <Table.Td>
              <Button variant="subtle" size="compact-sm" onClick={() => setOpenId(endpoint.id)}>
                {endpoint.name}
              </Button>
            </Table.Td>
            <Table.Td>
              <Text size="sm" lineClamp={2}>
                {endpoint.description ?? ''}
              </Text>
            </Table.Td>
            <Table.Td>{endpoint.tokens.length}</Table.Td>
            <Table.Td>
              <Switch
                aria-label={`Signal endpoint ${endpoint.name} enabled`}
                checked={endpoint.enabled}
                onChange={() => toggle.mutate(endpoint)}
              />
            </Table.Td>
            <Table.Td>
              <DeleteButton
                what={`the signal endpoint ${endpoint.name}`}
                title="Delete this signal endpoint?"
                message={`Its tokens stop working and what it received is deleted.`}
                onConfirm={() => deleteEndpoint.mutate(endpoint.id)}
              />
            </Table.Td>
          </>
        )}
      />
      {open ? <EndpointModal endpoint={open} onClose={() => setOpenId(null)} /> : null}
    </Stack>
  );
}
