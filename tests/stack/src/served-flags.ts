import { eventually, httpClient } from '@bunting/testing';

/**
 * Waits until the SDK edge at `url` serves `flag` on /api/client/features to a client token: it follows admin
 * changes through NATS, so a change is served a moment after its answer, later under load.
 */
export async function untilClientServes(
  url: string,
  token: string,
  flag: string,
  options: { timeoutMs?: number } = {},
): Promise<void> {
  const client = httpClient(url, { authorization: token });
  await eventually(
    async () =>
      ((await client.get('/api/client/features')).body.features as { name: string }[]).some(
        (feature) => feature.name === flag,
      ),
    options,
  );
}
