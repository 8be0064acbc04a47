import { Alert, Button, CopyButton, Group, Stack, Text } from '@mantine/core';

/** A secret shown once, right after it was made: copy it now, it is never shown again. */
export function SecretOnce({ label, secret }: { label: string; secret: string }) {
  return (
    <Alert color="orange" title={`${label}: copy it now`} role="status">
      <Stack gap="xs">
        <Text size="sm">It is stored only as a hash and will not be shown again.</Text>
        <Group gap="xs" wrap="nowrap">
          <Text ff="monospace" size="sm" style={{ wordBreak: 'break-all' }} aria-label={label}>
            {secret}
          </Text>
          <CopyButton value={secret}>
            {({ copied, copy }) => (
              <Button size="compact-sm" variant="light" onClick={copy}>
                {copied ? 'Copied' : 'Copy'}
              </Button>
            )}
          </CopyButton>
        </Group>
      </Stack>
    </Alert>
  );
}
