import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { ContextField, Variant } from '@bunting/contracts';
import { messageOf } from '../api/http.ts';
import { stickinessOptions } from '../context-fields/stickiness.ts';
import { toDraft, variantsReady, type VariantDraft } from './variant-drafts.ts';
import { useSaveEnvironmentVariants } from './variant-queries.ts';
import { VariantsEditor } from './variants-editor.tsx';

type Props = {
  project: string;
  flag: string;
  environment: string;
  variants: Variant[];
  fields: ContextField[];
  onClose: () => void;
};

/** A flag's variants in one environment, used where its strategies have none of their own. */
export function EnvironmentVariantsModal({ project, flag, environment, variants, fields, onClose }: Props) {
  const [drafts, setDrafts] = useState<VariantDraft[]>(() => variants.map(toDraft));
  // Where change requests are on, the variants go to the user's draft.
  const save = useSaveEnvironmentVariants(project, flag, environment);
  return (
    <Modal opened onClose={onClose} size="xl" title={`Variants of ${flag} in ${environment}`}>
      <Stack>
        <Text size="sm" c="dimmed">
          Strategies with variants of their own use those; the others use these.
        </Text>
        <VariantsEditor
          drafts={drafts}
          onChange={setDrafts}
          stickinessOptions={stickinessOptions(fields)}
          fields={fields}
        />
        {save.error ? (
          <Alert color="red" role="alert" title="Not saved">
            {messageOf(save.error)}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            loading={save.isPending}
            disabled={!variantsReady(drafts)}
            onClick={() => save.mutate(drafts, { onSuccess: onClose })}
          >
            Save variants
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
