import { TextInput, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError, fieldError } from '../api/http.ts';
import { FormModal } from '../ui/form-modal.tsx';
import { useCreateProject } from './project-queries.ts';

/** A project's id is URL-friendly; it is suggested from the name until the user types one. */
const idFrom = (name: string) =>
  name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9~_.-]+/g, '-')
    .replace(/^-+|-+$/g, '');

export function CreateProjectModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [id, setId] = useState('');
  const [idTouched, setIdTouched] = useState(false);
  const [description, setDescription] = useState('');
  const create = useCreateProject();
  const submit = () =>
    create.mutate(
      { id: idTouched ? id : idFrom(name), name, description: description || null },
      {
        onSuccess: (project) => {
          onClose();
          void navigate(`/projects/${encodeURIComponent(project.id)}`);
        },
      },
    );
  const error = create.error;
  // A taken id is the id field's problem.
  const idTaken = error instanceof ApiError && error.status === 409 ? error.message : undefined;
  if (!opened) return null;
  return (
    <FormModal
      title="New project"
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Create project"
      pending={create.isPending}
      error={idTaken ? null : error}
      fields={['id', 'name', 'description']}
    >
      <TextInput
        label="Name"
        required
        value={name}
        onChange={(event) => setName(event.currentTarget.value)}
        error={fieldError(error, 'name')}
        data-autofocus
      />
      <TextInput
        label="Id"
        description="Used in addresses and API tokens; letters, digits, ~ _ . -"
        required
        value={idTouched ? id : idFrom(name)}
        onChange={(event) => {
          setIdTouched(true);
          setId(event.currentTarget.value);
        }}
        error={fieldError(error, 'id') ?? idTaken}
      />
      <Textarea
        label="Description"
        value={description}
        onChange={(event) => setDescription(event.currentTarget.value)}
        autosize
        minRows={2}
        error={fieldError(error, 'description')}
      />
    </FormModal>
  );
}
