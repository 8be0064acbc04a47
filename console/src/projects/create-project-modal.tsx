import { Alert, Button, Group, Modal, Stack, TextInput, Textarea } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import type { Project } from '@bunting/contracts';
import { ApiError, fieldError, post } from '../api/http.ts';
import { projectKeys } from '../api/keys.ts';
import { notifySaved } from '../ui/notify.ts';

/** A project's id is URL-friendly; it is suggested from the name until the user types one. */
const idFrom = (name: string) => name.trim().toLowerCase().replace(/[^a-z0-9~_.-]+/g, '-').replace(/^-+|-+$/g, '');

export function CreateProjectModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [id, setId] = useState('');
  const [idTouched, setIdTouched] = useState(false);
  const [description, setDescription] = useState('');
  const create = useMutation({
    mutationFn: () => post<Project>('/api/admin/projects', { id: idTouched ? id : idFrom(name), name, description: description || null }),
    onSuccess: async (project) => {
      await queryClient.invalidateQueries({ queryKey: projectKeys.all });
      notifySaved(`Project ${project.name} created`);
      onClose();
      navigate(`/projects/${encodeURIComponent(project.id)}`);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  const error = create.error;
  const otherError = error && !fieldError(error, 'id') && !fieldError(error, 'name') ? error : null;
  return (
    <Modal opened={opened} onClose={onClose} title="New project">
      <form onSubmit={submit}>
        <Stack>
          <TextInput label="Name" required value={name} onChange={(event) => setName(event.currentTarget.value)} error={fieldError(error, 'name')} data-autofocus />
          <TextInput
            label="Id" description="Used in addresses and API tokens; letters, digits, ~ _ . -" required
            value={idTouched ? id : idFrom(name)} onChange={(event) => { setIdTouched(true); setId(event.currentTarget.value); }}
            error={fieldError(error, 'id') ?? (error instanceof ApiError && error.status === 409 ? error.message : undefined)}
          />
          <Textarea label="Description" value={description} onChange={(event) => setDescription(event.currentTarget.value)} autosize minRows={2} />
          {otherError && !(otherError instanceof ApiError && otherError.status === 409) ? <Alert color="red" role="alert">{otherError.message}</Alert> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={create.isPending}>Create project</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
