import { Alert, Anchor, Button, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { Banner } from '@bunting/contracts';
import { useShownBanners } from '../banners/banner-queries.ts';
import { useMaintenance } from '../maintenance/maintenance-queries.ts';

const COLORS: Record<string, string> = { info: 'blue', warning: 'orange', error: 'red', success: 'green' };

function BannerLink({ banner }: { banner: Banner }) {
  const [opened, { open, close }] = useDisclosure(false);
  const text = banner.linkText ?? 'More info';
  if (banner.link === 'dialog') {
    return (
      <>
        <Button variant="subtle" size="compact-sm" onClick={open}>
          {text}
        </Button>
        <Modal opened={opened} onClose={close} title={banner.dialogTitle ?? text}>
          <Text style={{ whiteSpace: 'pre-wrap' }}>{banner.dialog ?? ''}</Text>
        </Modal>
      </>
    );
  }
  // Only links within the console or to the web; anything else (javascript:, data:) is not followed.
  const safe = banner.link && (banner.link.startsWith('/') || /^https?:\/\//.test(banner.link));
  return safe ? (
    <Anchor href={banner.link!} target={banner.link!.startsWith('/') ? undefined : '_blank'} rel="noreferrer">
      {text}
    </Anchor>
  ) : null;
}

/** The messages admins put up for everyone (Unleash's banners), above every page. Markdown is shown as written. */
export function Banners() {
  // Maintenance mode is announced to everyone: changes would be refused while it is on.
  const maintenance = useMaintenance();
  const banners = useShownBanners();
  const shown = banners.data ?? [];
  if (shown.length === 0 && !maintenance.data?.enabled) return null;
  return (
    <Stack gap="xs" mb="md">
      {maintenance.data?.enabled ? (
        <Alert color="red" variant="light" role="status" aria-label="Maintenance mode">
          <Text size="sm" span>
            Maintenance mode is on: nothing can be changed until an administrator turns it off. SDKs keep getting their
            flags.
          </Text>
        </Alert>
      ) : null}
      {shown.map((banner) => (
        <Alert
          key={banner.id}
          color={COLORS[banner.variant] ?? 'blue'}
          variant="light"
          role="status"
          aria-label="Announcement"
        >
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} span>
            {banner.message}
          </Text>{' '}
          {banner.link ? <BannerLink banner={banner} /> : null}
        </Alert>
      ))}
    </Stack>
  );
}
