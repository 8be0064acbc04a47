import { Group, NumberInput, Select, Slider, Stack, Switch, Text, TextInput } from '@mantine/core';
import type { ContextField, StrategyDefinition } from '@bunting/contracts';
import { ValueListInput } from '../constraints/value-list-input.tsx';
import { parseValues } from '../constraints/constraint-values.ts';
import { stickinessOptions } from '../context-fields/stickiness.ts';

const LABELS: Record<string, string> = {
  rollout: 'Rollout',
  stickiness: 'Stickiness',
  groupId: 'Group id',
  userIds: 'User ids',
  IPs: 'IP addresses',
  hostNames: 'Host names',
  percentage: 'Percentage',
};

type Props = {
  definition: StrategyDefinition;
  parameters: Record<string, string>;
  onChange: (parameters: Record<string, string>) => void;
  fields: ContextField[];
  errors?: Record<string, string | undefined>;
};

function Percentage({
  label,
  value,
  onChange,
  description,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  description?: string | undefined;
}) {
  const number = Math.min(100, Math.max(0, Number(value) || 0));
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      {description ? (
        <Text size="xs" c="dimmed">
          {description}
        </Text>
      ) : null}
      <Group gap="md" align="center">
        <Slider
          style={{ flex: 1 }}
          min={0}
          max={100}
          value={number}
          onChange={(next) => onChange(String(next))}
          label={(next) => `${next} %`}
          thumbLabel={`${label} slider`}
          marks={[
            { value: 0, label: '0 %' },
            { value: 50, label: '50 %' },
            { value: 100, label: '100 %' },
          ]}
          mb="md"
        />
        <NumberInput
          aria-label={`${label} percent`}
          w={100}
          min={0}
          max={100}
          suffix=" %"
          value={number}
          onChange={(next) => onChange(String(Number(next) || 0))}
          clampBehavior="strict"
          allowDecimal={false}
        />
      </Group>
    </Stack>
  );
}

/**
 * The parameters a strategy declares, each with a control for its type: a slider for percentages, a list for
 * lists, a switch for booleans, a choice for stickiness. Built-in and custom strategies are edited the same way.
 */
export function StrategyParameters({ definition, parameters, onChange, fields, errors = {} }: Props) {
  if (definition.parameters.length === 0)
    return (
      <Text size="sm" c="dimmed">
        This strategy has no parameters: it is on for everyone its constraints let through.
      </Text>
    );
  const set = (name: string, value: string) => onChange({ ...parameters, [name]: value });
  return (
    <Stack gap="sm">
      {definition.parameters.map((parameter) => {
        const label = LABELS[parameter.name] ?? parameter.name;
        const value = parameters[parameter.name] ?? '';
        const description = parameter.description || undefined;
        const error = errors[parameter.name];
        if (parameter.name === 'stickiness') {
          return (
            <Select
              key={parameter.name}
              label={label}
              w={220}
              allowDeselect={false}
              data={stickinessOptions(fields)}
              value={value || 'default'}
              onChange={(next) => set('stickiness', next ?? 'default')}
              description="What keeps a user in or out as the rollout changes"
              error={error}
            />
          );
        }
        switch (parameter.type) {
          case 'percentage':
            return (
              <Percentage
                key={parameter.name}
                label={label}
                value={value}
                onChange={(next) => set(parameter.name, next)}
                description={description}
              />
            );
          case 'list':
            return (
              <ValueListInput
                key={parameter.name}
                label={label}
                values={parseValues(value)}
                onChange={(values) => set(parameter.name, values.join(','))}
                error={error}
              />
            );
          case 'number':
            return (
              <NumberInput
                key={parameter.name}
                label={label}
                description={description}
                required={parameter.required}
                value={value}
                onChange={(next) => set(parameter.name, String(next))}
                error={error}
              />
            );
          case 'boolean':
            return (
              <Switch
                key={parameter.name}
                label={label}
                description={description}
                checked={value === 'true'}
                onChange={(event) => set(parameter.name, String(event.currentTarget.checked))}
              />
            );
          default:
            return (
              <TextInput
                key={parameter.name}
                label={label}
                description={description}
                required={parameter.required}
                value={value}
                onChange={(event) => set(parameter.name, event.currentTarget.value)}
                error={error}
              />
            );
        }
      })}
    </Stack>
  );
}
