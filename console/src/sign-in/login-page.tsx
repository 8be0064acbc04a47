import { Button, Center, Divider, Paper, Stack, Text, Title } from '@mantine/core';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { SIGN_IN_METHODS } from './sign-in-methods.ts';
import { useSignInOptions } from './sign-in-queries.ts';

/** Only addresses of this console: a redirect parameter must never send the user to another site. */
function safeRedirect(value: string | null): string {
  return value && value.startsWith('/') && !value.startsWith('//') ? value : '/projects';
}

/** The sign-in page: the main method's form unless it is turned off, and a button for each other method that is on. */
export default function LoginPage() {
  const [params] = useSearchParams();
  const redirect = safeRedirect(params.get('redirect'));
  const navigate = useNavigate();
  const options = useSignInOptions();

  if (options.data === null) return <Navigate to={redirect} replace />;
  const MainForm = SIGN_IN_METHODS.find((method) => method.type === (options.data?.type ?? 'password'))?.LoginForm;
  const formShown = MainForm !== undefined && options.data?.defaultHidden !== true;
  const others = options.data?.options ?? [];

  return (
    <Center mih="100vh" bg="gray.0">
      <Paper withBorder shadow="sm" p="xl" w={380}>
        <main>
          <Stack>
            <Title order={1} size="h2">
              Sign in to Bunting
            </Title>
            {formShown ? (
              <MainForm onSignedIn={() => void navigate(redirect, { replace: true })} />
            ) : (
              <Text size="sm">Password sign-in is turned off on this installation.</Text>
            )}
            {others.length > 0 && formShown ? <Divider label="or" labelPosition="center" /> : null}
            {others.map((option) => (
              <Button key={option.type} component="a" href={option.path} variant="default">
                {option.message}
              </Button>
            ))}
          </Stack>
        </main>
      </Paper>
    </Center>
  );
}
