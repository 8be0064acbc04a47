import { Switch } from '@mantine/core';
import { useMutationState } from '@tanstack/react-query';
import { useChangeRequestDrafts } from '../change-requests/change-request-queries.ts';
import { Permission } from '@bunting/contracts';
import { answer, api } from '../api/http.ts';
import { usePermission } from '../api/session.ts';
import { Guarded } from '../ui/guarded.tsx';
import { useFlagChange } from '../feature-state/flag-queries.ts';

type Toggle = { flag: string; environment: string; on: boolean };

/**
 * Turning flags on and off in a project, one mutation for a whole page of switches (a table of 100 switches
 * would otherwise hold 100 of them). While a change is on its way its switch shows where it is going.
 */
export function useEnvironmentToggles(project: string) {
  const mutationKey = ['toggle', project];
  // Where change requests are on, a switch proposes the change in the user's draft instead of making it.
  const drafts = useChangeRequestDrafts(project);
  const switchIn = ({ flag: name, environment, on }: Toggle) => {
    const params = { params: { path: { projectId: project, featureName: name, environment } } };
    return on
      ? answer(api.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/on', params))
      : answer(
          api.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/off', params),
        );
  };
  const change = useFlagChange(
    (toggle: Toggle) =>
      drafts.required(toggle.environment)
        ? drafts.propose(toggle.environment, {
            feature: toggle.flag,
            action: 'updateEnabled',
            payload: { enabled: toggle.on },
          })
        : switchIn(toggle),
    ({ flag: name, environment, on }) =>
      drafts.required(environment)
        ? `Turning ${name} ${on ? 'on' : 'off'} in ${environment} was added to your change request`
        : `${name} turned ${on ? 'on' : 'off'} in ${environment}`,
    mutationKey,
  );
  const pending = useMutationState({
    filters: { mutationKey, status: 'pending' },
    select: (mutation) => mutation.state.variables as Toggle,
  });
  return {
    toggle: (toggle: Toggle) => change.mutate(toggle),
    pendingState: (name: string, environment: string) =>
      pending.find((toggle) => toggle.flag === name && toggle.environment === environment)?.on,
  };
}

type Props = {
  flag: string;
  environment: string;
  enabled: boolean;
  toggles: ReturnType<typeof useEnvironmentToggles>;
  /** Why the user may not change it, if they may not. */
  reason: string | undefined;
  withLabel?: boolean;
};

/** A flag's on/off switch in one environment: a real switch, named for the environment (and the flag, in a table). */
export function EnvironmentSwitch({ flag, environment, enabled, toggles, reason, withLabel = false }: Props) {
  const pending = toggles.pendingState(flag, environment);
  return (
    <Guarded reason={reason}>
      <Switch
        checked={pending ?? enabled}
        disabled={reason !== undefined || pending !== undefined}
        onChange={(event) => toggles.toggle({ flag, environment, on: event.currentTarget.checked })}
        // On the flag page the visible label names the environment; in a table the name says the flag too.
        {...(withLabel ? { label: `Enabled in ${environment}` } : { 'aria-label': `${flag} in ${environment}` })}
        color="teal"
      />
    </Guarded>
  );
}

/** The reason the signed-in user may not turn flags on or off in an environment, per environment. */
export function useToggleReasons(project: string, environments: readonly string[]): Map<string, string | undefined> {
  const can = usePermission();
  return new Map(
    environments.map((environment) => [
      environment,
      can(Permission.UPDATE_FEATURE_ENVIRONMENT, { project, environment }).reason,
    ]),
  );
}
