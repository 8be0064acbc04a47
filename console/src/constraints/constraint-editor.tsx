import '@mantine/dates/styles.css';
import {
  Button,
  Checkbox,
  CloseButton,
  Group,
  MultiSelect,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import type { ConstraintInput, ContextField } from '@bunting/contracts';
import { ValueListInput } from './value-list-input.tsx';
import {
  OPERATOR_LABELS,
  OPERATORS,
  allowsCaseInsensitive,
  singleValueProblem,
  valueKind,
  withOperator,
} from './constraint-values.ts';

const OPERATOR_GROUPS = [
  { group: 'Lists', items: OPERATORS.filter((operator) => valueKind(operator) === 'list') },
  { group: 'Numbers', items: OPERATORS.filter((operator) => valueKind(operator) === 'number') },
  { group: 'Dates', items: OPERATORS.filter((operator) => valueKind(operator) === 'date') },
  { group: 'Versions', items: OPERATORS.filter((operator) => valueKind(operator) === 'semver') },
  { group: 'Patterns', items: OPERATORS.filter((operator) => valueKind(operator) === 'pattern') },
].map(({ group, items }) => ({
  group,
  items: items.map((operator) => ({ value: operator, label: OPERATOR_LABELS[operator] })),
}));

const SINGLE_LABELS: Record<'number' | 'semver' | 'pattern', { label: string; placeholder: string }> = {
  number: { label: 'Number', placeholder: 'e.g. 42' },
  semver: { label: 'Version', placeholder: 'e.g. 1.2.3' },
  pattern: { label: 'Regular expression', placeholder: 'e.g. ^team-(a|b)$' },
};

type RowProps = {
  index: number;
  constraint: ConstraintInput;
  fields: ContextField[];
  onChange: (constraint: ConstraintInput) => void;
  onRemove: () => void;
  error?: string | undefined;
};

function SingleValue({ constraint, onChange, error }: Pick<RowProps, 'constraint' | 'onChange' | 'error'>) {
  const value = constraint.value ?? '';
  const problem = value ? singleValueProblem(constraint.operator, value) : undefined;
  if (valueKind(constraint.operator) === 'date') {
    const date = value && !Number.isNaN(Date.parse(value)) ? new Date(value) : null;
    return (
      <DateTimePicker
        label="Date and time"
        placeholder="Pick a date and time"
        clearable
        withSeconds={false}
        valueFormat="YYYY-MM-DD HH:mm"
        submitButtonProps={{ 'aria-label': 'Use this date and time' }}
        timePickerProps={{ 'aria-label': 'Time' }}
        nextLabel="Next month"
        previousLabel="Previous month"
        clearButtonProps={{ 'aria-label': 'Clear the date' }}
        value={date ? date.toISOString() : null}
        onChange={(picked) => onChange({ ...constraint, value: picked ? new Date(picked).toISOString() : '' })}
        error={error ?? problem}
      />
    );
  }
  const kind = valueKind(constraint.operator) as keyof typeof SINGLE_LABELS;
  return (
    <TextInput
      label={SINGLE_LABELS[kind].label}
      placeholder={SINGLE_LABELS[kind].placeholder}
      inputMode={kind === 'number' ? 'decimal' : 'text'}
      value={value}
      onChange={(event) => onChange({ ...constraint, value: event.currentTarget.value })}
      error={error ?? problem}
    />
  );
}

function ConstraintRow({ index, constraint, fields, onChange, onRemove, error }: RowProps) {
  const field = fields.find((candidate) => candidate.name === constraint.contextName);
  const legal = field?.legalValues ?? [];
  const kind = valueKind(constraint.operator);
  return (
    <Paper withBorder p="sm" role="group" aria-label={`Constraint ${index + 1}`}>
      <Stack gap="xs">
        <Group align="flex-end" gap="sm" wrap="wrap">
          <Select
            label="Context field"
            searchable
            w={200}
            allowDeselect={false}
            value={constraint.contextName || null}
            data={fields.map((candidate) => candidate.name)}
            onChange={(name) => onChange({ ...constraint, contextName: name ?? '' })}
            error={!constraint.contextName ? error : undefined}
          />
          <Checkbox
            label="Not"
            checked={constraint.inverted ?? false}
            onChange={(event) => onChange({ ...constraint, inverted: event.currentTarget.checked })}
            mb={8}
          />
          <Select
            label="Operator"
            w={190}
            allowDeselect={false}
            value={constraint.operator}
            data={OPERATOR_GROUPS}
            onChange={(operator) => operator && onChange(withOperator(constraint, operator))}
          />
          {allowsCaseInsensitive(constraint.operator) ? (
            <Checkbox
              label="Case-insensitive"
              checked={constraint.caseInsensitive ?? false}
              onChange={(event) => onChange({ ...constraint, caseInsensitive: event.currentTarget.checked })}
              mb={8}
            />
          ) : null}
          <CloseButton ml="auto" aria-label={`Remove constraint ${index + 1}`} onClick={onRemove} />
        </Group>
        {kind !== 'list' ? (
          <SingleValue constraint={constraint} onChange={onChange} error={constraint.contextName ? error : undefined} />
        ) : legal.length > 0 ? (
          <MultiSelect
            label="Values"
            searchable
            clearable
            data={legal.map((item) => ({
              value: item.value,
              label: item.description ? `${item.value} — ${item.description}` : item.value,
            }))}
            value={constraint.values ?? []}
            onChange={(values) => onChange({ ...constraint, values })}
            error={constraint.contextName ? error : undefined}
            description={`${constraint.contextName} has legal values; pick from them`}
          />
        ) : (
          <ValueListInput
            label="Values"
            values={constraint.values ?? []}
            onChange={(values) => onChange({ ...constraint, values })}
            error={constraint.contextName ? error : undefined}
          />
        )}
      </Stack>
    </Paper>
  );
}

type Props = {
  constraints: ConstraintInput[];
  fields: ContextField[];
  onChange: (constraints: ConstraintInput[]) => void;
  /** Problems per constraint (by index), from local checks or the server's ValidationError. */
  errors?: (string | undefined)[];
};

/** The constraints of a strategy or segment: every one must hold for it to apply. */
export function ConstraintEditor({ constraints, fields, onChange, errors = [] }: Props) {
  const replace = (index: number, next: ConstraintInput) =>
    onChange(constraints.map((constraint, at) => (at === index ? next : constraint)));
  return (
    <Stack gap="xs">
      {constraints.length === 0 ? (
        <Text size="sm" c="dimmed">
          No constraints: the strategy applies to every context.
        </Text>
      ) : null}
      {constraints.map((constraint, index) => (
        <ConstraintRow
          key={index}
          index={index}
          constraint={constraint}
          fields={fields}
          error={errors[index]}
          onChange={(next) => replace(index, next)}
          onRemove={() => onChange(constraints.filter((_, at) => at !== index))}
        />
      ))}
      <Group>
        <Button
          variant="light"
          size="xs"
          onClick={() =>
            onChange([
              ...constraints,
              {
                contextName: fields.some((field) => field.name === 'userId') ? 'userId' : (fields[0]?.name ?? ''),
                operator: 'IN',
                values: [],
                inverted: false,
                caseInsensitive: false,
              },
            ])
          }
        >
          Add constraint
        </Button>
      </Group>
    </Stack>
  );
}
