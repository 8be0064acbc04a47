import { Alert, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { fieldError, messageOf } from '../../api/http.ts';
import { PublicPage } from '../../ui/public-page.tsx';
import { Failed, Loading } from '../../ui/states.tsx';
import { useResetPassword, useResetToken } from './password-queries.ts';

/** Choosing a password from a reset link (/reset-password?token=...), signed out. */
export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const user = useResetToken(token);
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const change = useResetPassword();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (password === again) change.mutate({ token, password });
  };
  if (!token)
    return (
      <PublicPage title="Choose a password">
        <Alert color="red" role="alert">
          This address has no reset token in it.
        </Alert>
      </PublicPage>
    );
  if (user.isPending)
    return (
      <PublicPage title="Choose a password">
        <Loading label="Checking the link" />
      </PublicPage>
    );
  if (user.isError)
    return (
      <PublicPage title="Choose a password">
        <Failed error={user.error} title="This link cannot be used" />
      </PublicPage>
    );
  if (change.isSuccess)
    return (
      <PublicPage title="Password set">
        <Text>
          Your password is set. <Link to="/login">Sign in</Link>.
        </Text>
      </PublicPage>
    );
  const mismatch = again !== '' && again !== password ? 'The two passwords differ' : undefined;
  return (
    <PublicPage title="Choose a password">
      <Text size="sm">For {user.data.name ?? user.data.email}</Text>
      <form onSubmit={submit}>
        <Stack>
          <PasswordInput
            label="New password"
            description="At least 8 characters"
            required
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            error={fieldError(change.error, 'password')}
          />
          <PasswordInput
            label="The same password again"
            required
            value={again}
            onChange={(event) => setAgain(event.currentTarget.value)}
            error={mismatch}
          />
          {change.error && !fieldError(change.error, 'password') ? (
            <Alert color="red" role="alert">
              {messageOf(change.error)}
            </Alert>
          ) : null}
          <Button type="submit" loading={change.isPending} disabled={!password || password !== again}>
            Set password
          </Button>
        </Stack>
      </form>
    </PublicPage>
  );
}
