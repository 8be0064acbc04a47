import {
  Alert,
  Button,
  CloseButton,
  Group,
  NumberInput,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import type { ContextField } from '@bunting/contracts';
import { ValueListInput } from '../constraints/value-list-input.tsx';
import { newDraft, payloadProblem, weightPreview, type VariantDraft } from './variant-drafts.ts';

const PAYLOAD_TYPES = [
  { value: '', label: 'No payload' },
  { value: 'string', label: 'String' },
  { value: 'json', label: 'JSON' },
  { value: 'number', label: 'Number' },
  { value: 'csv', label: 'CSV' },
];

type Props = {
  drafts: VariantDraft[];
  onChange: (drafts: VariantDraft[]) => void;
  stickinessOptions: string[];
  /** Feature-environment variants may be forced for listed context values; strategy variants may not. */
  fields?: ContextField[] | undefined;
};

function Overrides({
  draft,
  fields,
  onChange,
}: {
  draft: VariantDraft;
  fields: ContextField[];
  onChange: (draft: VariantDraft) => void;
}) {
  const set = (index: number, next: VariantDraft['overrides'][number]) =>
    onChange({ ...draft, overrides: draft.overrides.map((override, at) => (at === index ? next : override)) });
  return (
    <Stack gap={6}>
      {draft.overrides.map((override, index) => (
        <Group
          key={index}
          align="flex-start"
          gap="sm"
          role="group"
          aria-label={`Override ${index + 1} of ${draft.name}`}
        >
          <Select
            label="Context field"
            w={180}
            searchable
            allowDeselect={false}
            value={override.contextName || null}
            data={fields.map((field) => field.name)}
            onChange={(name) => set(index, { ...override, contextName: name ?? '' })}
          />
          <div style={{ flex: 1 }}>
            <ValueListInput
              label="Values that get this variant"
              values={override.values}
              onChange={(values) => set(index, { ...override, values })}
            />
          </div>
          <CloseButton
            mt={28}
            aria-label={`Remove override ${index + 1} of ${draft.name}`}
            onClick={() => onChange({ ...draft, overrides: draft.overrides.filter((_, at) => at !== index) })}
          />
        </Group>
      ))}
      <Group>
        <Button
          variant="subtle"
          size="compact-xs"
          onClick={() =>
            onChange({
              ...draft,
              overrides: [
                ...draft.overrides,
                {
                  contextName: fields.some((field) => field.name === 'userId')
                    ? 'userId'
                    : (fields[0]?.name ?? 'userId'),
                  values: [],
                },
              ],
            })
          }
        >
          Add override
        </Button>
      </Group>
    </Stack>
  );
}

/** Variants with their weights (fixed or sharing the rest), stickiness, payload and, where allowed, overrides. */
export function VariantsEditor({ drafts, onChange, stickinessOptions, fields }: Props) {
  const preview = weightPreview(drafts);
  const replace = (index: number, next: VariantDraft) =>
    onChange(drafts.map((draft, at) => (at === index ? next : draft)));
  return (
    <Stack gap="xs">
      {drafts.length === 0 ? (
        <Text size="sm" c="dimmed">
          No variants.
        </Text>
      ) : null}
      {drafts.map((draft, index) => {
        const problem = payloadProblem(draft);
        return (
          <Paper key={index} withBorder p="sm" role="group" aria-label={`Variant ${index + 1}`}>
            <Stack gap="xs">
              <Group align="flex-end" gap="sm">
                <TextInput
                  label="Variant name"
                  w={200}
                  value={draft.name}
                  onChange={(event) => replace(index, { ...draft, name: event.currentTarget.value })}
                />
                <Select
                  label="Weight"
                  w={190}
                  allowDeselect={false}
                  value={draft.weightType}
                  data={[
                    { value: 'variable', label: 'Shares the rest' },
                    { value: 'fix', label: 'Fixed' },
                  ]}
                  onChange={(value) => replace(index, { ...draft, weightType: value ?? 'variable' })}
                />
                {draft.weightType === 'fix' ? (
                  <NumberInput
                    label="Percent"
                    w={110}
                    min={0}
                    max={100}
                    decimalScale={1}
                    suffix=" %"
                    value={draft.percent}
                    onChange={(value) => replace(index, { ...draft, percent: Number(value) || 0 })}
                  />
                ) : (
                  <Text size="sm" mb={8} aria-label={`${draft.name} gets ${preview.percents[index]} percent`}>
                    {preview.percents[index]} %
                  </Text>
                )}
                <Select
                  label="Stickiness"
                  w={150}
                  allowDeselect={false}
                  value={draft.stickiness}
                  data={stickinessOptions}
                  onChange={(value) => replace(index, { ...draft, stickiness: value ?? 'default' })}
                />
                <CloseButton
                  ml="auto"
                  mb={6}
                  aria-label={`Remove variant ${draft.name || index + 1}`}
                  onClick={() => onChange(drafts.filter((_, at) => at !== index))}
                />
              </Group>
              <Group align="flex-start" gap="sm">
                <Select
                  label="Payload"
                  w={140}
                  allowDeselect={false}
                  value={draft.payloadType}
                  data={PAYLOAD_TYPES}
                  onChange={(value) =>
                    replace(index, { ...draft, payloadType: (value ?? '') as VariantDraft['payloadType'] })
                  }
                />
                {draft.payloadType ? (
                  <Textarea
                    label="Payload value"
                    style={{ flex: 1 }}
                    autosize
                    minRows={1}
                    maxRows={8}
                    value={draft.payload}
                    error={problem}
                    ff={draft.payloadType === 'json' ? 'monospace' : undefined}
                    onChange={(event) => replace(index, { ...draft, payload: event.currentTarget.value })}
                  />
                ) : null}
              </Group>
              {fields ? <Overrides draft={draft} fields={fields} onChange={(next) => replace(index, next)} /> : null}
            </Stack>
          </Paper>
        );
      })}
      {preview.problem ? (
        <Alert color="orange" role="alert" p="xs">
          {preview.problem}
        </Alert>
      ) : null}
      <Group>
        <Button
          variant="light"
          size="xs"
          onClick={() => onChange([...drafts, newDraft(drafts.length, drafts[0]?.stickiness ?? 'default')])}
        >
          Add variant
        </Button>
      </Group>
    </Stack>
  );
}
