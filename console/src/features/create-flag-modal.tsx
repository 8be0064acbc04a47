import { Alert, Button, Group, Modal, Select, Stack, Switch, TextInput, Textarea } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import type { CreatedFeature } from '@bunting/contracts';
import { ApiError, fieldError, post, segment } from '../api/http.ts';
import { flagKeys, projectKeys } from '../api/keys.ts';
import { useFeatureTypes } from '../api/reference.ts';
import { notifySaved } from '../ui/notify.ts';

/** Asks the server whether a name may be used (free, well-formed, matching the project's naming pattern). */
function useNameCheck(project: string, name: string) {
  const [settled] = useDebouncedValue(name.trim(), 250);
  return useQuery({
    queryKey: ['name-check', project, settled],
    queryFn: async () => {
      try {
        await post('/api/admin/features/validate', { name: settled, projectId: project });
        return null;
      } catch (error) {
        if (error instanceof ApiError && error.status < 500) return error.details[0]?.message ?? error.message;
        throw error;
      }
    },
    enabled: settled.length > 0,
    staleTime: 5_000,
    retry: false,
  });
}

export function CreateFlagModal({ project, opened, onClose }: { project: string; opened: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const types = useFeatureTypes();
  const [name, setName] = useState('');
  const [type, setType] = useState<string | null>('release');
  const [description, setDescription] = useState('');
  const [impressionData, setImpressionData] = useState(false);
  const check = useNameCheck(project, name);
  const create = useMutation({
    mutationFn: () => post<CreatedFeature>(`/api/admin/projects/${segment(project)}/features`, {
      name: name.trim(), type: type ?? 'release', description: description || null, impressionData,
    }),
    onSuccess: async (flag) => {
      await Promise.all([queryClient.invalidateQueries({ queryKey: flagKeys.all }), queryClient.invalidateQueries({ queryKey: projectKeys.all })]);
      notifySaved(`Flag ${flag.name} created`);
      onClose();
      navigate(`/projects/${segment(project)}/features/${segment(flag.name)}`);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  const nameProblem = fieldError(create.error, 'name') ?? (create.error instanceof ApiError && create.error.status === 409 ? create.error.message : undefined)
    ?? (name.trim() ? check.data ?? undefined : undefined);
  const otherError = create.error && !fieldError(create.error, 'name') && !(create.error instanceof ApiError && create.error.status === 409) ? create.error : null;
  return (
    <Modal opened={opened} onClose={onClose} title="New flag" size="lg">
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label="Name" required data-autofocus value={name} onChange={(event) => setName(event.currentTarget.value)}
            description="Letters, digits and ~ _ . - ; the name SDKs ask for"
            error={nameProblem}
          />
          <Select
            label="Type" data={(types.data ?? []).map((item) => ({ value: item.id, label: item.name }))} value={type} onChange={setType}
            allowDeselect={false} description={types.data?.find((item) => item.id === type)?.description}
          />
          <Textarea label="Description" value={description} onChange={(event) => setDescription(event.currentTarget.value)} autosize minRows={2} error={fieldError(create.error, 'description')} />
          <Switch label="Impression data" description="SDKs emit an impression event each time this flag is evaluated" checked={impressionData} onChange={(event) => setImpressionData(event.currentTarget.checked)} />
          {otherError ? <Alert color="red" role="alert">{otherError.message}</Alert> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={create.isPending} disabled={!name.trim() || Boolean(check.data)}>Create flag</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
