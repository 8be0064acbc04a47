import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

export default function NotFoundPage() {
  return (
    <Stack>
      <Title order={1}>Page not found</Title>
      <Text>
        There is nothing at this address.{' '}
        <Anchor component={Link} to="/projects">
          Go to the projects
        </Anchor>
        .
      </Text>
    </Stack>
  );
}
