import { Select, Switch, TextInput, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError, fieldError } from '../api/http.ts';
import { flagPage } from '../ui/addresses.ts';
import { FormModal } from '../ui/form-modal.tsx';
import { flagTypeOf, useCreateFlag, useFeatureTypes, useNameCheck } from './feature-queries.ts';

export function CreateFlagModal({
  project,
  opened,
  onClose,
}: {
  project: string;
  opened: boolean;
  onClose: () => void;
}) {
  const navigate = useNavigate();
  const types = useFeatureTypes();
  const [name, setName] = useState('');
  const [type, setType] = useState<string | null>('release');
  const [description, setDescription] = useState('');
  const [impressionData, setImpressionData] = useState(false);
  const check = useNameCheck(project, name);
  const create = useCreateFlag(project);
  const submit = () =>
    create.mutate(
      { name: name.trim(), type: flagTypeOf(type), description: description || null, impressionData },
      {
        onSuccess: (flag) => {
          onClose();
          void navigate(flagPage(project, flag.name));
        },
      },
    );
  const nameProblem =
    fieldError(create.error, 'name') ??
    (create.error instanceof ApiError && create.error.status === 409 ? create.error.message : undefined) ??
    (name.trim() ? (check.data ?? undefined) : undefined);
  const nameTaken = create.error instanceof ApiError && create.error.status === 409;
  if (!opened) return null;
  return (
    <FormModal
      title="New flag"
      size="lg"
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Create flag"
      pending={create.isPending}
      disabled={!name.trim() || Boolean(check.data)}
      error={nameTaken ? null : create.error}
      fields={['name', 'type', 'description']}
    >
      <TextInput
        label="Name"
        required
        data-autofocus
        value={name}
        onChange={(event) => setName(event.currentTarget.value)}
        description="Letters, digits and ~ _ . - ; the name SDKs ask for"
        error={nameProblem}
      />
      <Select
        label="Type"
        data={(types.data ?? []).map((item) => ({ value: item.id, label: item.name }))}
        value={type}
        onChange={setType}
        allowDeselect={false}
        description={types.data?.find((item) => item.id === type)?.description}
        error={fieldError(create.error, 'type')}
      />
      <Textarea
        label="Description"
        value={description}
        onChange={(event) => setDescription(event.currentTarget.value)}
        autosize
        minRows={2}
        error={fieldError(create.error, 'description')}
      />
      <Switch
        label="Impression data"
        description="SDKs emit an impression event each time this flag is evaluated"
        checked={impressionData}
        onChange={(event) => setImpressionData(event.currentTarget.checked)}
      />
    </FormModal>
  );
}
