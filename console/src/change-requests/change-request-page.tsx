import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { OPEN_CHANGE_REQUEST_STATES, type ChangeRequestView } from '@bunting/contracts';
import { messageOf } from '../api/http.ts';
import { useMe } from '../api/session.ts';
import { useFlag } from '../feature-state/flag-queries.ts';
import { DiffTable } from '../history/diff-table.tsx';
import { Empty, Failed, Loading } from '../ui/states.tsx';
import { previewChange } from './change-preview.ts';
import {
  changeRequestPath,
  useChangeRequest,
  useChangeRequests,
  useCommentChangeRequest,
  useMoveChangeRequest,
} from './change-request-queries.ts';

const STATE_COLORS: Record<string, string> = {
  Draft: 'gray',
  'In review': 'blue',
  Approved: 'teal',
  Applied: 'green',
  Scheduled: 'indigo',
  Rejected: 'red',
  Cancelled: 'gray',
};

/** One flag's changes in a request, each as a diff against the flag as it is now in the request's environment. */
function FlagChanges({
  projectId,
  environment,
  feature,
  open,
}: {
  projectId: string;
  environment: string;
  feature: ChangeRequestView['features'][number];
  open: boolean;
}) {
  // Once applied (or closed) the flag as it is now no longer shows what the request changed: list what it set.
  const flag = useFlag(projectId, feature.name);
  const current = open ? flag.data : undefined;
  return (
    <Paper withBorder p="md" component="section" aria-label={`Changes to ${feature.name}`}>
      <Title order={2} size="h4">
        <Anchor
          component={Link}
          to={`/projects/${encodeURIComponent(projectId)}/features/${encodeURIComponent(feature.name)}`}
        >
          {feature.name}
        </Anchor>
      </Title>
      {feature.conflict ? (
        <Alert color="orange" mt="xs">
          {feature.conflict}
        </Alert>
      ) : null}
      <Text size="sm" c="dimmed">
        {open ? 'Each change next to the flag as it is now.' : 'What the request set; the flag may have changed since.'}
      </Text>
      <Stack gap="sm" mt="xs">
        {feature.changes.map((change) => {
          const preview = previewChange(change.action, change.payload, current, environment);
          return (
            <Stack key={change.id} gap={4}>
              <Text size="sm" fw={600}>
                {preview.summary}
              </Text>
              {change.conflict ? (
                <Alert color="orange" p="xs">
                  {change.conflict}
                </Alert>
              ) : null}
              {preview.changes.length > 0 ? (
                <DiffTable changes={preview.changes} label={`${preview.summary} on ${feature.name}`} />
              ) : (
                <Text size="sm" c="dimmed">
                  No difference from the flag as it is now.
                </Text>
              )}
            </Stack>
          );
        })}
      </Stack>
    </Paper>
  );
}

/** What the signed-in person may do next with the request, given its state and who made it. */
type Step = { state: 'In review' | 'Approved' | 'Rejected' | 'Applied' | 'Cancelled'; label: string };

function nextSteps(request: ChangeRequestView, myName: string | undefined): Step[] {
  const mine = request.createdBy.username !== null && request.createdBy.username === myName;
  switch (request.state) {
    case 'Draft':
      return mine
        ? [
            { state: 'In review', label: 'Send for review' },
            { state: 'Cancelled', label: 'Cancel' },
          ]
        : [];
    case 'In review':
      return mine
        ? [{ state: 'Cancelled', label: 'Cancel' }]
        : [
            { state: 'Approved', label: 'Approve' },
            { state: 'Rejected', label: 'Reject' },
          ];
    case 'Approved':
      return [
        { state: 'Applied', label: 'Apply changes' },
        { state: 'Cancelled', label: 'Cancel' },
      ];
    default:
      return [];
  }
}

/** A change request: its changes, approvals and comments, and the next step for whoever is looking. */
export function ChangeRequestPage() {
  const { projectId = '', id = '0' } = useParams();
  const me = useMe();
  const request = useChangeRequest(projectId, Number(id));
  const [comment, setComment] = useState('');
  const [applyAt, setApplyAt] = useState('');
  const move = useMoveChangeRequest(projectId, Number(id));
  const addComment = useCommentChangeRequest(projectId, Number(id));
  const moveTo = (state: Step['state']) =>
    move.mutate({ state, ...(comment.trim() ? { comment: comment.trim() } : {}) }, { onSuccess: () => setComment('') });
  const schedule = () => move.mutate({ state: 'Scheduled', scheduledAt: new Date(applyAt).toISOString() });
  const submitComment = (event: FormEvent) => {
    event.preventDefault();
    addComment.mutate(comment.trim(), { onSuccess: () => setComment('') });
  };
  if (request.isPending) return <Loading label="Loading the change request" />;
  if (request.isError) return <Failed error={request.error} />;
  const data = request.data;
  const myName = me.data?.user.username ?? me.data?.user.email ?? undefined;
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        <Anchor component={Link} to="/projects">
          Projects
        </Anchor>{' '}
        /{' '}
        <Anchor component={Link} to={`/projects/${encodeURIComponent(projectId)}`}>
          {projectId}
        </Anchor>
        {' / '}
        <Anchor component={Link} to={`/projects/${encodeURIComponent(projectId)}/change-requests`}>
          Change requests
        </Anchor>
      </Text>
      <Group gap="sm">
        <Title order={1}>{data.title ?? `Change request #${data.id}`}</Title>
        <Badge color={STATE_COLORS[data.state] ?? 'gray'} aria-label={`State: ${data.state}`}>
          {data.state}
        </Badge>
      </Group>
      <Text size="sm">
        In <b>{data.environment}</b>, by {data.createdBy.username ?? 'someone'}; {data.approvals.length} of{' '}
        {data.minApprovals} approvals.
      </Text>
      {data.features.map((feature) => (
        <FlagChanges
          key={feature.name}
          projectId={projectId}
          environment={data.environment}
          feature={feature}
          open={OPEN_CHANGE_REQUEST_STATES.includes(data.state)}
        />
      ))}
      {data.comments.length > 0 ? (
        <Stack gap={4}>
          <Title order={2} size="h4">
            Comments
          </Title>
          {data.comments.map((entry) => (
            <Text key={entry.id} size="sm">
              <b>{entry.createdBy.username ?? 'someone'}</b>: {entry.text}
            </Text>
          ))}
        </Stack>
      ) : null}
      <form onSubmit={submitComment}>
        <Stack gap="xs">
          <Textarea
            label="Comment"
            autosize
            minRows={2}
            value={comment}
            onChange={(event) => setComment(event.currentTarget.value)}
          />
          <Group>
            <Button type="submit" variant="default" disabled={!comment.trim()} loading={addComment.isPending}>
              Add comment
            </Button>
            {nextSteps(data, myName).map((step) => (
              <Button
                key={step.state}
                color={step.state === 'Rejected' || step.state === 'Cancelled' ? 'red' : undefined}
                variant={step.state === 'Cancelled' ? 'subtle' : 'filled'}
                loading={move.isPending && move.variables?.state === step.state}
                onClick={() => moveTo(step.state)}
              >
                {step.label}
              </Button>
            ))}
          </Group>
          {data.state === 'Approved' ? (
            <Group align="flex-end">
              <TextInput
                type="datetime-local"
                label="Or apply at"
                description="Your local time"
                value={applyAt}
                onChange={(event) => setApplyAt(event.currentTarget.value)}
              />
              <Button
                variant="light"
                disabled={!applyAt}
                loading={move.isPending && move.variables?.state === 'Scheduled'}
                onClick={schedule}
              >
                Schedule
              </Button>
            </Group>
          ) : null}
          {data.schedule ? (
            <Text size="sm">
              Scheduled for {new Date(data.schedule.scheduledAt).toLocaleString()} ({data.schedule.status}
              {data.schedule.failureReason ? `: ${data.schedule.failureReason}` : ''}).
            </Text>
          ) : null}
          {move.error ? (
            <Alert color="red" role="alert">
              {messageOf(move.error)}
            </Alert>
          ) : null}
        </Stack>
      </form>
    </Stack>
  );
}

/** A project's change requests, newest first. */
export function ChangeRequestsPage() {
  const projectId = useParams().projectId ?? '';
  const requests = useChangeRequests(projectId);
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        <Anchor component={Link} to="/projects">
          Projects
        </Anchor>{' '}
        /{' '}
        <Anchor component={Link} to={`/projects/${encodeURIComponent(projectId)}`}>
          {projectId}
        </Anchor>
      </Text>
      <Title order={1}>Change requests</Title>
      {requests.isPending ? (
        <Loading label="Loading change requests" />
      ) : requests.isError ? (
        <Failed error={requests.error} />
      ) : requests.data.length === 0 ? (
        <Empty title="No change requests yet" />
      ) : (
        <Table aria-label="Change requests">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Request</Table.Th>
              <Table.Th>Environment</Table.Th>
              <Table.Th>Flags</Table.Th>
              <Table.Th>By</Table.Th>
              <Table.Th>State</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {requests.data.map((request) => (
              <Table.Tr key={request.id}>
                <Table.Td>
                  <Anchor component={Link} to={changeRequestPath(projectId, request.id)}>
                    {request.title ?? `#${request.id}`}
                  </Anchor>
                </Table.Td>
                <Table.Td>{request.environment}</Table.Td>
                <Table.Td>{request.features.map((feature) => feature.name).join(', ')}</Table.Td>
                <Table.Td>{request.createdBy.username ?? ''}</Table.Td>
                <Table.Td>
                  <Badge color={STATE_COLORS[request.state] ?? 'gray'}>{request.state}</Badge>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
