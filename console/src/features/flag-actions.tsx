import { Button, Group, Select, Switch, Textarea } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Permission, type Feature } from '@bunting/contracts';
import { endpointKey } from '../api/endpoint.ts';
import { fieldError } from '../api/http.ts';
import { usePermission } from '../api/session.ts';
import { useChangeRequestDrafts } from '../change-requests/change-request-queries.ts';
import { useFlagChange } from '../feature-state/flag-queries.ts';
import { projectPage } from '../ui/addresses.ts';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { FormModal } from '../ui/form-modal.tsx';
import { Guarded } from '../ui/guarded.tsx';
import {
  flagTypeOf,
  useArchiveFlag,
  useDeleteFlag,
  useFeatureTypes,
  useMarkStale,
  useReviveFlag,
  useUpdateFlag,
} from './feature-queries.ts';

function EditFlagModal({ flag, onClose }: { flag: Feature; onClose: () => void }) {
  const types = useFeatureTypes();
  const [description, setDescription] = useState(flag.description ?? '');
  const [type, setType] = useState<string | null>(flag.type);
  const [impressionData, setImpressionData] = useState(flag.impressionData);
  const save = useUpdateFlag(flag.project, flag.name);
  return (
    <FormModal
      title={`Edit ${flag.name}`}
      onClose={onClose}
      onSubmit={() =>
        save.mutate(
          { description: description || null, type: flagTypeOf(type ?? flag.type), impressionData },
          { onSuccess: onClose },
        )
      }
      submitLabel="Save"
      pending={save.isPending}
      error={save.error}
      fields={['type', 'description']}
    >
      <Select
        label="Type"
        allowDeselect={false}
        data={(types.data ?? []).map((item) => ({ value: item.id, label: item.name }))}
        value={type}
        onChange={setType}
        error={fieldError(save.error, 'type')}
      />
      <Textarea
        label="Description"
        autosize
        minRows={2}
        value={description}
        onChange={(event) => setDescription(event.currentTarget.value)}
        error={fieldError(save.error, 'description')}
      />
      <Switch
        label="Impression data"
        checked={impressionData}
        onChange={(event) => setImpressionData(event.currentTarget.checked)}
      />
    </FormModal>
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
  const stale = useMarkStale(flag.project, flag.name);
  // Where any environment takes changes through requests, archiving is drafted there as Unleash does.
  const drafts = useChangeRequestDrafts(flag.project);
  const archiveThrough = drafts.anyRequired();
  const archiveDirectly = useArchiveFlag(flag.project, flag.name, `${flag.name} archived`);
  const draftArchive = useFlagChange(
    () => drafts.propose(archiveThrough ?? '', { feature: flag.name, action: 'archiveFeature' }),
    `Archiving ${flag.name} was added to your change request in ${archiveThrough}`,
  );
  const archive = archiveThrough ? draftArchive : archiveDirectly;
  const revive = useReviveFlag(flag.project, flag.name);
  const destroy = useDeleteFlag(flag.project, flag.name);

  if (flag.archived) {
    return (
      <Group gap="xs">
        <Guarded reason={update.reason}>
          <Button variant="light" disabled={!update.allowed} loading={revive.isPending} onClick={() => revive.mutate()}>
            Revive
          </Button>
        </Guarded>
        <Guarded reason={deletion.reason}>
          <ConfirmButton
            color="red"
            variant="light"
            disabled={!deletion.allowed}
            title={`Delete ${flag.name}`}
            confirmLabel="Delete for good"
            message="The flag and its configuration are removed for good; its history stays in the event log."
            onConfirm={async () => {
              await destroy.mutateAsync();
              queryClient.removeQueries({
                queryKey: endpointKey('/api/admin/projects/{projectId}/features/{featureName}', {
                  path: { projectId: flag.project, featureName: flag.name },
                }),
              });
              void navigate(projectPage(flag.project));
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
        <Button variant="default" disabled={!update.allowed} onClick={open}>
          Edit
        </Button>
      </Guarded>
      <Guarded reason={update.reason}>
        <Button
          variant="default"
          disabled={!update.allowed}
          loading={stale.isPending}
          onClick={() => stale.mutate(!flag.stale)}
        >
          {flag.stale ? 'Mark active' : 'Mark stale'}
        </Button>
      </Guarded>
      <Guarded reason={deletion.reason}>
        <ConfirmButton
          color="red"
          variant="light"
          disabled={!deletion.allowed}
          title={`Archive ${flag.name}`}
          confirmLabel="Archive"
          message={
            archiveThrough
              ? `Change requests are on in ${archiveThrough}: archiving goes to your change request there, and happens when it is applied.`
              : 'SDKs stop receiving the flag. It can be revived from the archive.'
          }
          onConfirm={() => archive.mutateAsync()}
        >
          Archive
        </ConfirmButton>
      </Guarded>
      {editing ? <EditFlagModal flag={flag} onClose={close} /> : null}
    </Group>
  );
}
