import {
  Badge,
  Button,
  Group,
  Modal,
  MultiSelect,
  NativeSelect,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import { fieldError } from '../api/http.ts';
import { usePermission } from '../api/session.ts';
import { useEnvironments } from '../environments/environment-queries.ts';
import { useProjects } from '../projects/project-queries.ts';
import { DeleteButton } from '../ui/delete-button.tsx';
import { CreateButton } from '../ui/create-button.tsx';
import { FormModal } from '../ui/form-modal.tsx';
import { ListTable } from '../ui/list-table.tsx';
import { SecretOnce } from '../ui/secret-once.tsx';
import { useApiTokens, useCreateApiToken, useDeleteApiToken, useSetApiTokenExpiry } from './api-token-queries.ts';

// Admin access is given to service accounts and personal access tokens, not API tokens (as in Unleash 8).
const TYPES = [
  { value: 'backend', label: 'Backend (server SDKs, /api/client)' },
  { value: 'frontend', label: 'Frontend (browser SDKs, /api/frontend)' },
];

function CreateTokenModal({ onClose }: { onClose: () => void }) {
  const environments = useEnvironments();
  const projects = useProjects();
  const [name, setName] = useState('');
  const [type, setType] = useState<'backend' | 'frontend'>('backend');
  const [environment, setEnvironment] = useState('development');
  const [chosen, setChosen] = useState<string[]>([]);
  const create = useCreateApiToken();
  const submit = () =>
    create.mutate({ tokenName: name, type, environment, projects: chosen.length > 0 ? chosen : ['*'] });
  if (create.data?.secret) {
    return (
      <Modal opened onClose={onClose} title="Token created">
        <Stack>
          <SecretOnce label="API token" secret={create.data.secret} />
          <Group justify="flex-end">
            <Button onClick={onClose}>Done</Button>
          </Group>
        </Stack>
      </Modal>
    );
  }
  const error = create.error;
  return (
    <FormModal
      title="New API token"
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Create token"
      pending={create.isPending}
      disabled={!name.trim()}
      error={error}
      fields={['tokenName', 'environment', 'projects']}
    >
      <TextInput
        label="Name"
        required
        value={name}
        onChange={(event) => setName(event.currentTarget.value)}
        error={fieldError(error, 'tokenName')}
        data-autofocus
      />
      <Select
        label="Type"
        allowDeselect={false}
        data={TYPES}
        value={type}
        onChange={(value) => (value === 'backend' || value === 'frontend') && setType(value)}
        description="Scripts that change configuration use a service account's token (Admin, Service accounts) or a personal access token."
      />
      <Select
        label="Environment"
        allowDeselect={false}
        data={(environments.data ?? []).map((item) => item.name)}
        value={environment}
        onChange={(value) => value && setEnvironment(value)}
        error={fieldError(error, 'environment')}
      />
      <MultiSelect
        label="Projects"
        description="None chosen: every project"
        data={(projects.data?.projects ?? []).map((item) => ({ value: item.id, label: item.name }))}
        value={chosen}
        onChange={setChosen}
        error={fieldError(error, 'projects')}
      />
    </FormModal>
  );
}

/** API tokens of every kind: the secret is shown once, when made; afterwards a token is named by its id. */
export default function ApiTokensPage() {
  const can = usePermission();
  const creatable = can('CREATE_CLIENT_API_TOKEN');
  const tokens = useApiTokens();
  const [creating, { open, close }] = useDisclosure(false);
  const deleteToken = useDeleteApiToken();
  const setExpiry = useSetApiTokenExpiry();
  return (
    <Stack>
      <CreateButton permission={creatable} onClick={open}>
        New API token
      </CreateButton>
      <ListTable
        query={tokens}
        label="API tokens"
        empty="No API tokens"
        columns={['Name', 'Type', 'Projects', 'Environment', 'Expires', 'Last used', '']}
        rowsOf={(data) => data.tokens}
        rowKey={(token) => token.id ?? token.createdAt}
        cells={(token) => (
          <>
            <Table.Td>{token.tokenName}</Table.Td>
            <Table.Td>
              <Badge
                variant="light"
                color={token.type === 'admin' ? 'red' : token.type === 'frontend' ? 'grape' : 'blue'}
              >
                {token.type === 'client' ? 'backend' : token.type}
              </Badge>
            </Table.Td>
            <Table.Td>
              <Text size="sm">{token.projects.join(', ')}</Text>
            </Table.Td>
            <Table.Td>{token.environment}</Table.Td>
            <Table.Td>
              <Group gap={6} wrap="nowrap">
                <Text size="sm">{token.expiresAt ? new Date(token.expiresAt).toLocaleDateString() : 'never'}</Text>
                {token.id !== undefined ? (
                  <NativeSelect
                    size="xs"
                    aria-label={`New expiry of ${token.tokenName}`}
                    value=""
                    disabled={!can('UPDATE_CLIENT_API_TOKEN').allowed}
                    onChange={(event) =>
                      event.currentTarget.value &&
                      setExpiry.mutate({ id: token.id!, days: Number(event.currentTarget.value) })
                    }
                    data={[
                      { value: '', label: 'Change…' },
                      { value: '30', label: 'in 30 days' },
                      { value: '90', label: 'in 90 days' },
                      { value: '365', label: 'in a year' },
                    ]}
                  />
                ) : null}
              </Group>
            </Table.Td>
            <Table.Td>{token.seenAt ? new Date(token.seenAt).toLocaleString() : 'never'}</Table.Td>
            <Table.Td>
              {token.id !== undefined ? (
                <DeleteButton
                  what={`the token ${token.tokenName}`}
                  disabled={!can('DELETE_CLIENT_API_TOKEN').allowed}
                  title={`Delete ${token.tokenName}?`}
                  message="Every SDK or script using it is refused from then on."
                  onConfirm={() => deleteToken.mutate(token.id!)}
                />
              ) : null}
            </Table.Td>
          </>
        )}
      />
      {creating ? <CreateTokenModal onClose={close} /> : null}
    </Stack>
  );
}
