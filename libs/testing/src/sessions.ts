import { httpClient, type HttpClient } from './http-client.ts';

/** Logs in with a password and returns a client that sends the session cookie. */
export async function loginAs(baseUrl: string, username: string, password: string): Promise<HttpClient> {
  const reply = await httpClient(baseUrl).post('/auth/simple/login', { username, password });
  if (reply.status !== 200) throw new Error(`login as ${username} failed: ${reply.status} ${reply.text}`);
  const cookie = reply.headers.get('set-cookie')!.split(';')[0]!;
  return httpClient(baseUrl, { cookie });
}
