import { Alert, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { fieldError, messageOf } from '../api/http.ts';
import { Failed, Loading } from '../ui/states.tsx';
import { PublicPage } from '../ui/public-page.tsx';
import { useInvite, useSignUp } from './invite-queries.ts';

/** Sign-up with an invite link (Unleash's /new-user?invite=<token>), signed out; the account starts as a Viewer. */
export default function NewUserPage() {
  const [params] = useSearchParams();
  const token = params.get('invite') ?? '';
  const valid = useInvite(token);
  const [form, setForm] = useState({ name: '', email: '', username: '', password: '' });
  const signUp = useSignUp(token);
  const set = (field: keyof typeof form) => (value: string) => setForm((current) => ({ ...current, [field]: value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signUp.mutate({
      name: form.name,
      email: form.email,
      password: form.password,
      ...(form.username ? { username: form.username } : {}),
    });
  };
  if (!token)
    return (
      <PublicPage title="Join Bunting">
        <Alert color="red" role="alert">
          This address has no invite in it. Ask for a new link.
        </Alert>
      </PublicPage>
    );
  if (valid.isPending)
    return (
      <PublicPage title="Join Bunting">
        <Loading label="Checking the invite link" />
      </PublicPage>
    );
  if (valid.isError)
    return (
      <PublicPage title="Join Bunting">
        <Failed error={valid.error} title="This invite link cannot be used" />
      </PublicPage>
    );
  if (signUp.isSuccess) {
    return (
      <PublicPage title="Welcome">
        <Text>
          Your account is ready. <Link to="/login">Sign in</Link> with your email or user name and the password you
          chose.
        </Text>
      </PublicPage>
    );
  }
  const error = signUp.error;
  return (
    <PublicPage title="Join Bunting">
      <form onSubmit={submit}>
        <Stack>
          <TextInput
            label="Name"
            required
            value={form.name}
            onChange={(event) => set('name')(event.currentTarget.value)}
            error={fieldError(error, 'name')}
          />
          <TextInput
            label="Email"
            type="email"
            required
            value={form.email}
            onChange={(event) => set('email')(event.currentTarget.value)}
            error={fieldError(error, 'email')}
          />
          <TextInput
            label="User name"
            description="Optional"
            value={form.username}
            onChange={(event) => set('username')(event.currentTarget.value)}
            error={fieldError(error, 'username')}
          />
          <PasswordInput
            label="Password"
            description="At least 8 characters"
            required
            value={form.password}
            onChange={(event) => set('password')(event.currentTarget.value)}
            error={fieldError(error, 'password')}
          />
          {error && !['name', 'email', 'username', 'password'].some((field) => fieldError(error, field)) ? (
            <Alert color="red" role="alert">
              {messageOf(error)}
            </Alert>
          ) : null}
          <Button type="submit" loading={signUp.isPending}>
            Create my account
          </Button>
        </Stack>
      </form>
    </PublicPage>
  );
}
