import { Alert, Button, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ApiError, messageOf } from '../../api/http.ts';
import { PublicPage } from '../../ui/public-page.tsx';
import { useResetByEmail } from './password-queries.ts';

/** Asking for a reset link by e-mail (/forgotten-password, Unleash's address for it), signed out. */
export default function ForgottenPasswordPage() {
  const [email, setEmail] = useState('');
  const ask = useResetByEmail();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    ask.mutate(email.trim());
  };
  if (ask.isSuccess) {
    return (
      <PublicPage title="Check your e-mail">
        <Text>
          If an account has the address {email.trim()}, a link to set a new password is on its way to it. The link works
          once, for 24 hours.
        </Text>
        <Text>
          <Link to="/login">Back to sign-in</Link>
        </Text>
      </PublicPage>
    );
  }
  // Where no e-mail is set up the server says so (404): then only an admin can make a link.
  const noMail = ask.error instanceof ApiError && ask.error.status === 404;
  return (
    <PublicPage title="Forgot your password?">
      <form onSubmit={submit}>
        <Stack>
          <Text size="sm">Give the e-mail address of your account: we send a link to set a new password to it.</Text>
          {ask.error ? (
            <Alert color={noMail ? 'yellow' : 'red'} role="alert">
              {noMail
                ? 'This installation sends no e-mail. Ask an admin for a password reset link.'
                : messageOf(ask.error)}
            </Alert>
          ) : null}
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
            data-autofocus
          />
          <Button type="submit" loading={ask.isPending}>
            Send me a link
          </Button>
          <Text size="sm">
            <Link to="/login">Back to sign-in</Link>
          </Text>
        </Stack>
      </form>
    </PublicPage>
  );
}
