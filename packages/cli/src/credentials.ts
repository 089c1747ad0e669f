/**
 * The `auth` option a command gives the client for a URL: OAuth with the tokens `toolwire login`
 * left in the file store, refreshed there as they expire. Only `login` sends the user to the
 * authorization server (through the loopback helper) or registers toolwire there; any other
 * command that meets a server wanting a login fails with status 3 and says to run it. A target
 * that brings its own Authorization header (-H, or the config entry's headers) is left to it.
 */
import {
  authKeys,
  type HttpStatusError,
  isMcpError,
  loopbackAuthorization,
  type OAuthOptions,
} from '@toolwire/client';
import { fileAuthStore } from './auth-store.ts';
import { checkOpenable } from './openable.ts';
import type { Terminal } from './terminal.ts';

/** The name dynamic registration gives toolwire at an authorization server. */
export const CLIENT_NAME = 'toolwire CLI';

export async function authOptions(
  url: string,
  headers: Record<string, string>,
  terminal: Terminal,
  login: { browser: boolean } | undefined,
): Promise<OAuthOptions | undefined> {
  if (Object.keys(headers).some((name) => name.toLowerCase() === 'authorization')) return undefined;
  const store = fileAuthStore();
  if (!login) {
    // Without a login for this server there is nothing to send, and nothing to register.
    const known = await store.get(authKeys.resource(new URL(url).href));
    return known ? { store, clientName: CLIENT_NAME } : undefined;
  }
  const loopback = loopbackAuthorization({
    open: (url) => showSignIn(url, terminal, login.browser),
  });
  return {
    store,
    clientName: CLIENT_NAME,
    authorize: loopback.authorize,
    redirectUri: loopback.redirectUri,
  };
}

/**
 * Shows the authorization server's sign-in page: its URL on stderr, and in the browser when a
 * person is there. Only an https URL (or http to this machine) is shown or opened at all.
 */
export async function showSignIn(url: URL, terminal: Terminal, browser: boolean): Promise<void> {
  checkOpenable(url, 'the sign-in URL');
  // The URL carries no secret (PKCE keeps the verifier here); the user needs to see it.
  terminal.tell(`Sign in at: ${url.href}`);
  if (browser && terminal.interactive) {
    // `open` runs the system's opener with the URL as one argument, never through a shell.
    const { default: open } = await import('open');
    await open(url.href).catch(() => undefined);
  }
}

/**
 * Whether `error` means the server wants credentials that `toolwire login` gets: a 401, a server
 * that refused to be spoken to without credentials (`credentials_required`), or an authorization
 * that needs the user again (`interaction_required`).
 */
export function needsLogin(error: unknown): boolean {
  if (!isMcpError(error)) return false;
  if (error.code === 'HTTP_STATUS') return (error as HttpStatusError).status === 401;
  const reason = Reflect.get(error, 'reason');
  return (
    error.code === 'AUTHORIZATION' &&
    (reason === 'interaction_required' || reason === 'credentials_required')
  );
}
