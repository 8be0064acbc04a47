import { Alert, Stack, Switch, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { get, post } from '../api/http.ts';
import { usePermission } from '../api/session.ts';
import { notifyFailed } from '../ui/notify.ts';
import { Failed, Loading } from '../ui/states.tsx';
import { adminKeys } from '../api/admin-keys.ts';

export const maintenanceQuery = () => ({ queryKey: adminKeys.maintenance, queryFn: ({ signal }: { signal: AbortSignal }) => get<{ enabled: boolean }>('/api/admin/maintenance', signal), staleTime: 15_000 });

/** Maintenance mode: while on, configuration cannot be changed (SDKs keep being served); every signed-in user is told. */
export default function MaintenancePage() {
  const queryClient = useQueryClient();
  const admin = usePermission()('ADMIN');
  const state = useQuery(maintenanceQuery());
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => post('/api/admin/maintenance', { enabled }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: adminKeys.maintenance }),
    onError: (error) => notifyFailed(error),
  });
  if (state.isPending) return <Loading label="Loading maintenance mode" />;
  if (state.isError) return <Failed error={state.error} />;
  return (
    <Stack maw={640}>
      <Text>While maintenance mode is on, no flag, project or setting can be changed through the console or the API. SDKs keep getting their flags.</Text>
      <Switch label="Maintenance mode" checked={state.data.enabled} disabled={!admin.allowed || toggle.isPending} onChange={(event) => toggle.mutate(event.currentTarget.checked)} />
      {admin.allowed ? null : <Alert color="gray">{admin.reason}</Alert>}
    </Stack>
  );
}
