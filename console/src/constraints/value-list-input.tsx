import { ActionIcon, Button, Group, Stack, TextInput } from '@mantine/core';
import { RemovablePill } from '../ui/removable-pill.tsx';
import { useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import { addValues } from './constraint-values.ts';

const SHOWN = 60;

type Props = {
  label: string;
  values: string[];
  onChange: (values: string[]) => void;
  error?: string | undefined;
  placeholder?: string;
};

/**
 * A list of values, typed one by one (Enter or comma) or pasted by the hundred (lines, commas or a spreadsheet
 * column). Long lists show their first values and a count; each value can be removed.
 */
export function ValueListInput({
  label,
  values,
  onChange,
  error,
  placeholder = 'Type a value and press Enter, or paste many',
}: Props) {
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const [expanded, setExpanded] = useState(false);
  const add = (text: string) => {
    const result = addValues(values, text);
    setProblem(result.problem);
    if (result.added > 0) onChange(result.values);
    setDraft('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if ((event.key === 'Enter' || event.key === ',') && draft.trim()) {
      event.preventDefault();
      add(draft);
    }
  };
  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    const text = event.clipboardData.getData('text');
    if (/[\n\r,\t]/.test(text)) {
      event.preventDefault();
      add(`${draft}${text}`);
    }
  };
  const shown = expanded ? values : values.slice(0, SHOWN);
  return (
    <Stack gap={6}>
      <TextInput
        label={label}
        placeholder={placeholder}
        value={draft}
        onChange={(event) => setDraft(event.currentTarget.value)}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
        onBlur={() => draft.trim() && add(draft)}
        error={error ?? problem}
        description={values.length > 0 ? `${values.length} value${values.length === 1 ? '' : 's'}` : undefined}
        rightSection={
          draft.trim() ? (
            <ActionIcon variant="subtle" aria-label={`Add ${draft.trim()}`} onClick={() => add(draft)}>
              +
            </ActionIcon>
          ) : null
        }
      />
      {values.length > 0 ? (
        <>
          <Group gap={4} aria-label={`${label}: ${values.length} values`} role="list">
            {shown.map((value) => (
              <RemovablePill
                key={value}
                role="listitem"
                onRemove={() => onChange(values.filter((item) => item !== value))}
                removeLabel={`Remove ${value}`}
              >
                {value}
              </RemovablePill>
            ))}
          </Group>
          <Group gap="xs">
            {values.length > SHOWN ? (
              <Button variant="subtle" size="compact-xs" onClick={() => setExpanded((current) => !current)}>
                {expanded ? 'Show fewer' : `Show all ${values.length}`}
              </Button>
            ) : null}
            <Button variant="subtle" size="compact-xs" color="red" onClick={() => onChange([])}>
              Clear all values
            </Button>
          </Group>
        </>
      ) : null}
    </Stack>
  );
}
