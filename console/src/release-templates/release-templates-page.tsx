import { Anchor, Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { usePermission } from '../api/session.ts';
import { DeleteButton } from '../ui/delete-button.tsx';
import { ListTable } from '../ui/list-table.tsx';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import {
  useArchiveReleaseTemplate,
  useDeleteReleaseTemplate,
  useReleaseTemplates,
} from './release-template-queries.ts';

const intervals = (milestones: readonly { transitionCondition: { intervalMinutes: number } | null }[]) =>
  milestones.some((milestone) => milestone.transitionCondition) ? 'moves on by itself' : 'started by hand';

/** Release templates: the ordered milestones a flag's release plan copies, each a set of strategies. */
export default function ReleaseTemplatesPage() {
  const can = usePermission();
  const templates = useReleaseTemplates();
  const archive = useArchiveReleaseTemplate();
  const remove = useDeleteReleaseTemplate();
  const create = can('RELEASE_PLAN_TEMPLATE_CREATE');
  return (
    <Stack>
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          A template is applied to a flag in one environment; its milestones start in order, by hand or after their
          interval.
        </Text>
        <Button component={Link} to="/admin/release-templates/new" disabled={!create.allowed} title={create.reason}>
          New release template
        </Button>
      </Group>
      <ListTable
        query={templates}
        label="Release templates"
        empty="No release templates yet"
        columns={['Name', 'Milestones', 'State', '']}
        rowKey={(template) => template.id}
        cells={(template) => (
          <>
            <Table.Td>
              <Anchor component={Link} to={`/admin/release-templates/${template.id}`} fw={600}>
                {template.name}
              </Anchor>
              {template.description ? (
                <Text size="xs" c="dimmed">
                  {template.description}
                </Text>
              ) : null}
            </Table.Td>
            <Table.Td>
              <Text size="sm">{template.milestones.map((milestone) => milestone.name).join(' → ')}</Text>
              <Text size="xs" c="dimmed">
                {intervals(template.milestones)}
              </Text>
            </Table.Td>
            <Table.Td>
              {template.archivedAt ? (
                <Badge color="gray" variant="light">
                  archived
                </Badge>
              ) : (
                <Badge variant="light">offered</Badge>
              )}
            </Table.Td>
            <Table.Td>
              <Group gap={4} wrap="nowrap" justify="flex-end">
                {template.archivedAt ? null : (
                  <ConfirmButton
                    size="compact-sm"
                    variant="subtle"
                    disabled={!can('RELEASE_PLAN_TEMPLATE_DELETE').allowed}
                    aria-label={`Archive the release template ${template.name}`}
                    title="Archive this template?"
                    message="Plans made from it keep running; it is no longer offered."
                    confirmLabel="Archive"
                    onConfirm={() => archive.mutate(template.id)}
                  >
                    Archive
                  </ConfirmButton>
                )}
                <DeleteButton
                  what={`the release template ${template.name}`}
                  disabled={!can('RELEASE_PLAN_TEMPLATE_DELETE').allowed}
                  title="Delete this template?"
                  message="Plans made from it keep their own copy of its milestones."
                  onConfirm={() => remove.mutate(template.id)}
                />
              </Group>
            </Table.Td>
          </>
        )}
      />
    </Stack>
  );
}
