import { Alert, Button, Center, Divider, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { ApiError, messageOf } from '../api/http.ts';
import { usePasswordSignIn, useSignInOptions } from './auth-queries.ts';

/** Only addresses of this console: a redirect parameter must never send the user to another site. */
function safeRedirect(value: string | null): string {
  return value && value.startsWith('/') && !value.startsWith('//') ? value : '/projects';
}

export default function LoginPage() {
  const [params] = useSearchParams();
  const redirect = safeRedirect(params.get('redirect'));
  const navigate = useNavigate();
  const options = useSignInOptions();
  const signIn = usePasswordSignIn();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (options.data === null) return <Navigate to={redirect} replace />;
  const oidc = options.data?.options?.find((option) => option.type === 'oidc');
  const passwordHidden = options.data?.defaultHidden === true;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await signIn.mutateAsync({ username, password });
      navigate(redirect, { replace: true });
    } catch (failure) {
      setError(failure instanceof ApiError && failure.status === 401 ? 'Wrong user name or password.' : messageOf(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Center mih="100vh" bg="gray.0">
      <Paper withBorder shadow="sm" p="xl" w={380}>
        <main>
          <Stack>
            <Title order={1} size="h2">Sign in to Bunting</Title>
            {error ? <Alert color="red" role="alert">{error}</Alert> : null}
            {!passwordHidden ? (
              <form onSubmit={(event) => void submit(event)}>
                <Stack>
                  <TextInput label="User name or email" autoComplete="username" required value={username} onChange={(event) => setUsername(event.currentTarget.value)} />
                  <PasswordInput label="Password" autoComplete="current-password" required value={password} onChange={(event) => setPassword(event.currentTarget.value)} />
                  <Button type="submit" loading={busy}>Sign in</Button>
                </Stack>
              </form>
            ) : (
              <Text size="sm">Password sign-in is turned off on this installation.</Text>
            )}
            {oidc ? (
              <>
                {!passwordHidden ? <Divider label="or" labelPosition="center" /> : null}
                <Button component="a" href={oidc.path} variant="default">Sign in with OpenID Connect</Button>
              </>
            ) : null}
          </Stack>
        </main>
      </Paper>
    </Center>
  );
}
