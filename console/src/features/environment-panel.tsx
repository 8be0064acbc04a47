import { Anchor, Badge, Button, Group, Menu, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useState } from 'react';
import {
  Permission,
  type ContextField,
  type FeatureEnvironment,
  type FeatureStrategy,
  type Segment,
  type StrategyDefinition,
} from '@bunting/contracts';
import { usePermission } from '../api/session.ts';
import { changeRequestPath, usePendingChanges } from '../change-requests/change-request-queries.ts';
import { StrategyCard } from '../strategies/strategy-card.tsx';
import { StrategyEditor, strategyLabel } from '../strategies/strategy-editor.tsx';
import { Guarded } from '../ui/guarded.tsx';
import { ReleasePlanPanel } from '../release-plans/release-plan-panel.tsx';
import { EnvironmentVariantsModal } from '../variants/environment-variants-modal.tsx';
import { EnvironmentSwitch, useEnvironmentToggles } from './environment-switch.tsx';

type Props = {
  project: string;
  flag: string;
  archived: boolean;
  state: FeatureEnvironment;
  environments: string[];
  definitions: StrategyDefinition[];
  fields: ContextField[];
  segments: Segment[];
};

type Editing = { strategy: FeatureStrategy } | { add: string } | null;

/** A flag in one environment: its switch, its strategies in order, and its variants. */
export function EnvironmentPanel({
  project,
  flag,
  archived,
  state,
  environments,
  definitions,
  fields,
  segments,
}: Props) {
  const can = usePermission();
  const environment = state.name;
  const create = can(Permission.CREATE_FEATURE_STRATEGY, { project, environment });
  const variantsAllowed = can(Permission.UPDATE_FEATURE_ENVIRONMENT_VARIANTS, { project, environment });
  const toggleReason = can(Permission.UPDATE_FEATURE_ENVIRONMENT, { project, environment }).reason;
  const toggles = useEnvironmentToggles(project);
  // Open change requests touching this flag here: what is about to change, and where to review it.
  const pending = (usePendingChanges(project, flag).data ?? []).filter(
    (request) => request.environment === environment,
  );
  const [editing, setEditing] = useState<Editing>(null);
  const [editingVariants, setEditingVariants] = useState(false);
  const strategies = [...state.strategies].sort((a, b) => a.sortOrder - b.sortOrder);
  const offered = definitions.filter((definition) => !definition.deprecated);
  const headingId = `environment-${environment}`;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Group gap="sm">
            <Title order={2} size="h3" id={headingId}>
              {environment}
            </Title>
            <Badge variant="light" color={state.type === 'production' ? 'red' : 'gray'}>
              {state.type}
            </Badge>
            {pending.map((request) => (
              <Anchor key={request.id} component={Link} to={changeRequestPath(project, request.id)} size="sm">
                Pending change: change request #{request.id} ({request.state})
              </Anchor>
            ))}
          </Group>
          {archived ? (
            <Badge color="gray">archived</Badge>
          ) : (
            <EnvironmentSwitch
              flag={flag}
              environment={environment}
              enabled={state.enabled}
              toggles={toggles}
              reason={toggleReason}
              withLabel
            />
          )}
        </Group>
        {archived ? null : <ReleasePlanPanel project={project} flag={flag} state={state} />}
        {strategies.length === 0 ? (
          <Text size="sm" c="dimmed">
            {state.releasePlans?.length
              ? 'No strategies of its own: its release plan decides who gets it here.'
              : 'No strategies: when enabled, this flag is on for everyone here.'}
          </Text>
        ) : (
          strategies.map((strategy) => (
            <StrategyCard
              key={strategy.id}
              project={project}
              flag={flag}
              environment={environment}
              environments={environments}
              strategy={strategy}
              siblings={strategies}
              definitions={definitions}
              segments={segments}
              onEdit={() => setEditing({ strategy })}
            />
          ))
        )}
        <Group justify="space-between">
          <Guarded reason={create.reason}>
            <Menu position="bottom-start">
              <Menu.Target>
                <Button size="xs" disabled={!create.allowed || archived} aria-label={`Add strategy in ${environment}`}>
                  Add strategy
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                {offered.map((definition) => (
                  <Menu.Item key={definition.name} onClick={() => setEditing({ add: definition.name })}>
                    {strategyLabel(definitions, definition.name)}
                  </Menu.Item>
                ))}
              </Menu.Dropdown>
            </Menu>
          </Guarded>
        </Group>
        <Stack gap={4}>
          <Group justify="space-between">
            <Text fw={600} size="sm">
              Variants
            </Text>
            <Guarded reason={variantsAllowed.reason}>
              <Button
                size="compact-xs"
                variant="subtle"
                disabled={!variantsAllowed.allowed || archived}
                onClick={() => setEditingVariants(true)}
                aria-label={`Edit variants in ${environment}`}
              >
                Edit variants
              </Button>
            </Guarded>
          </Group>
          {state.variants.length === 0 ? (
            <Text size="sm" c="dimmed">
              None
            </Text>
          ) : (
            <Table withRowBorders={false} verticalSpacing={2} aria-label={`Variants in ${environment}`}>
              <Table.Tbody>
                {state.variants.map((variant) => (
                  <Table.Tr key={variant.name}>
                    <Table.Td>
                      <Text size="sm" ff="monospace">
                        {variant.name}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">
                        {variant.weight / 10} %{variant.weightType === 'fix' ? ' (fixed)' : ''}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" c="dimmed">
                        {variant.payload ? `${variant.payload.type} payload` : ''}
                        {variant.overrides?.length ? `, ${variant.overrides.length} overrides` : ''}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Stack>
      </Stack>
      {editing ? (
        <StrategyEditor
          project={project}
          flag={flag}
          environment={environment}
          editing={editing}
          definitions={definitions}
          fields={fields}
          segments={segments}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {editingVariants ? (
        <EnvironmentVariantsModal
          project={project}
          flag={flag}
          environment={environment}
          variants={state.variants}
          fields={fields}
          onClose={() => setEditingVariants(false)}
        />
      ) : null}
    </Paper>
  );
}
