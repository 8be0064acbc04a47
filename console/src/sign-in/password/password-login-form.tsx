import { Alert, Anchor, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ApiError, messageOf } from '../../api/http.ts';
import { usePasswordSignIn } from './password-queries.ts';

/** The user name and password form of the sign-in page. */
export function PasswordLoginForm({ onSignedIn }: { onSignedIn: () => void }) {
  const signIn = usePasswordSignIn();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate({ username, password }, { onSuccess: onSignedIn });
  };
  const error = signIn.error;
  return (
    <form onSubmit={submit}>
      <Stack>
        {error ? (
          <Alert color="red" role="alert">
            {error instanceof ApiError && error.status === 401 ? 'Wrong user name or password.' : messageOf(error)}
          </Alert>
        ) : null}
        <TextInput
          label="User name or email"
          autoComplete="username"
          required
          value={username}
          onChange={(event) => setUsername(event.currentTarget.value)}
        />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
        />
        <Button type="submit" loading={signIn.isPending}>
          Sign in
        </Button>
        <Anchor component={Link} to="/forgotten-password" size="sm">
          Forgot your password?
        </Anchor>
      </Stack>
    </form>
  );
}
