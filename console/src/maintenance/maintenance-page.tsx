import { Alert, Stack, Switch, Text } from '@mantine/core';
import { usePermission } from '../api/session.ts';
import { Failed, Loading } from '../ui/states.tsx';
import { useMaintenance, useSetMaintenance } from './maintenance-queries.ts';

/** Maintenance mode: while on, configuration cannot be changed (SDKs keep being served); every signed-in user is told. */
export default function MaintenancePage() {
  const admin = usePermission()('ADMIN');
  const state = useMaintenance();
  const toggle = useSetMaintenance();
  if (state.isPending) return <Loading label="Loading maintenance mode" />;
  if (state.isError) return <Failed error={state.error} />;
  return (
    <Stack maw={640}>
      <Text>
        While maintenance mode is on, no flag, project or setting can be changed through the console or the API. SDKs
        keep getting their flags.
      </Text>
      <Switch
        label="Maintenance mode"
        checked={state.data.enabled}
        disabled={!admin.allowed || toggle.isPending}
        onChange={(event) => toggle.mutate(event.currentTarget.checked)}
      />
      {admin.allowed ? null : <Alert color="gray">{admin.reason}</Alert>}
    </Stack>
  );
}
