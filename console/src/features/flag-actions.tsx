import { Alert, Button, Group, Modal, Select, Stack, Switch, Textarea } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Permission, type Feature } from '@bunting/contracts';
import { fieldError, patch, post, put, remove, segment } from '../api/http.ts';
import { flagKeys } from '../api/keys.ts';
import { useFeatureTypes } from '../api/reference.ts';
import { usePermission } from '../api/session.ts';
import { useChangeRequestDrafts } from '../change-requests/change-request-queries.ts';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { Guarded } from '../ui/guarded.tsx';
import { flagPath, useFlagChange } from '../feature-state/flag-queries.ts';

function EditFlagModal({ flag, onClose }: { flag: Feature; onClose: () => void }) {
  const types = useFeatureTypes();
  const [description, setDescription] = useState(flag.description ?? '');
  const [type, setType] = useState<string | null>(flag.type);
  const [impressionData, setImpressionData] = useState(flag.impressionData);
  const save = useFlagChange(flag.project, flag.name, () => put(flagPath(flag.project, flag.name), { description: description || null, type: type ?? flag.type, impressionData }), 'Flag saved');
  return (
    <Modal opened onClose={onClose} title={`Edit ${flag.name}`}>
      <Stack>
        <Select label="Type" allowDeselect={false} data={(types.data ?? []).map((item) => ({ value: item.id, label: item.name }))} value={type} onChange={setType} error={fieldError(save.error, 'type')} />
        <Textarea label="Description" autosize minRows={2} value={description} onChange={(event) => setDescription(event.currentTarget.value)} error={fieldError(save.error, 'description')} />
        <Switch label="Impression data" checked={impressionData} onChange={(event) => setImpressionData(event.currentTarget.checked)} />
        {save.error && !fieldError(save.error, 'type') && !fieldError(save.error, 'description') ? <Alert color="red" role="alert">{save.error.message}</Alert> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>Cancel</Button>
          <Button loading={save.isPending} onClick={() => save.mutate(undefined, { onSuccess: onClose })}>Save</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** What may be done to the flag as a whole: edit, mark stale, archive; for an archived flag, revive or delete. */
export function FlagActions({ flag }: { flag: Feature }) {
  const can = usePermission();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const update = can(Permission.UPDATE_FEATURE, { project: flag.project });
  const deletion = can(Permission.DELETE_FEATURE, { project: flag.project });
  const [editing, { open, close }] = useDisclosure(false);
  const path = flagPath(flag.project, flag.name);
  const projectPath = `/api/admin/projects/${segment(flag.project)}`;
  const stale = useFlagChange(flag.project, flag.name, (value: boolean) => patch(path, [{ op: 'replace', path: '/stale', value }]), (value) => (value ? 'Marked stale' : 'Marked active'));
  // Where any environment takes changes through requests, archiving is drafted there as Unleash does.
  const drafts = useChangeRequestDrafts(flag.project);
  const archiveThrough = drafts.anyRequired();
  const archive = useFlagChange(flag.project, flag.name, () => (archiveThrough
    ? drafts.propose(archiveThrough, { feature: flag.name, action: 'archiveFeature', payload: undefined })
    : remove(path)), archiveThrough ? `Archiving ${flag.name} was added to your change request in ${archiveThrough}` : `${flag.name} archived`);
  const revive = useFlagChange(flag.project, flag.name, () => post(`${projectPath}/revive`, { features: [flag.name] }), `${flag.name} revived`);
  const destroy = useFlagChange(flag.project, flag.name, () => post(`${projectPath}/delete`, { features: [flag.name] }), `${flag.name} deleted`);

  if (flag.archived) {
    return (
      <Group gap="xs">
        <Guarded reason={update.reason}>
          <Button variant="light" disabled={!update.allowed} loading={revive.isPending} onClick={() => revive.mutate()}>Revive</Button>
        </Guarded>
        <Guarded reason={deletion.reason}>
          <ConfirmButton
            color="red" variant="light" disabled={!deletion.allowed} title={`Delete ${flag.name}`} confirmLabel="Delete for good"
            message="The flag and its configuration are removed for good; its history stays in the event log."
            onConfirm={async () => {
              await destroy.mutateAsync();
              queryClient.removeQueries({ queryKey: flagKeys.detail(flag.project, flag.name) });
              navigate(`/projects/${segment(flag.project)}`);
            }}
          >
            Delete
          </ConfirmButton>
        </Guarded>
      </Group>
    );
  }
  return (
    <Group gap="xs">
      <Guarded reason={update.reason}>
        <Button variant="default" disabled={!update.allowed} onClick={open}>Edit</Button>
      </Guarded>
      <Guarded reason={update.reason}>
        <Button variant="default" disabled={!update.allowed} loading={stale.isPending} onClick={() => stale.mutate(!flag.stale)}>{flag.stale ? 'Mark active' : 'Mark stale'}</Button>
      </Guarded>
      <Guarded reason={deletion.reason}>
        <ConfirmButton
          color="red" variant="light" disabled={!deletion.allowed} title={`Archive ${flag.name}`} confirmLabel="Archive"
          message={archiveThrough ? `Change requests are on in ${archiveThrough}: archiving goes to your change request there, and happens when it is applied.` : 'SDKs stop receiving the flag. It can be revived from the archive.'} onConfirm={() => archive.mutateAsync()}
        >
          Archive
        </ConfirmButton>
      </Guarded>
      {editing ? <EditFlagModal flag={flag} onClose={close} /> : null}
    </Group>
  );
}
