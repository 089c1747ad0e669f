/**
 * `toolwire login URL` signs in to a server that wants OAuth: the authorization server's page in
 * the browser (its URL printed too), the redirect taken on a loopback port, the tokens kept in the
 * file store for every later command. `toolwire logout URL` forgets them.
 */
import { authKeys, type IssuerRecord, type ResourceRecord } from '@toolwire/client';
import type { FileAuthStore } from '../auth-store.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';
import { visible } from '../printable.ts';
import type { Session } from '../session.ts';
import type { Target } from '../target.ts';
import type { Terminal } from '../terminal.ts';

export async function loginCommand(session: Session, store: FileAuthStore): Promise<ExitCode> {
  const { client, target, terminal, signal } = session;
  const url = urlOf(target);
  // Connecting ran the authorization where the server asked for one; a listing makes sure.
  await client.listTools({ signal });
  const loggedIn = (await tokenKeys(store, url)).length > 0;
  const server = client.serverInfo ?? { name: url, version: '' };
  if (terminal.json) {
    terminal.printJson({ loggedIn, url, server, store: store.file });
  } else if (loggedIn) {
    terminal.print(`Logged in to ${visible(server.name)} at ${url}.`);
    terminal.print(`The tokens are kept in ${store.file}; every toolwire command uses them.`);
  } else {
    terminal.print(`${visible(server.name)} at ${url} asked for no login.`);
  }
  return EXIT.ok;
}

export async function logoutCommand(
  target: Target,
  terminal: Terminal,
  store: FileAuthStore,
): Promise<ExitCode> {
  const url = urlOf(target);
  const keys = await tokenKeys(store, url);
  for (const key of keys) await store.delete(key);
  // What discovery found goes too, so the next login looks again; the registration stays.
  await store.delete(authKeys.resource(url));
  const loggedOut = keys.length > 0;
  if (terminal.json) terminal.printJson({ loggedOut, url, store: store.file });
  else terminal.print(loggedOut ? `Logged out of ${url}.` : `Not logged in to ${url}.`);
  return EXIT.ok;
}

/** The keys of the tokens stored for the server at `url`, one per authorization server. */
async function tokenKeys(store: FileAuthStore, url: string): Promise<string[]> {
  const resource = (await store.get(authKeys.resource(url))) as ResourceRecord | undefined;
  if (!resource) return [];
  const keys: string[] = [];
  for (const name of resource.authorizationServers) {
    const issuer = (await store.get(authKeys.issuer(name))) as IssuerRecord | undefined;
    const key = authKeys.tokens(issuer?.issuer ?? name, resource.resource);
    if (await store.get(key)) keys.push(key);
  }
  return keys;
}

function urlOf(target: Target): string {
  // The store keys a server by its URL as the client parsed it.
  return target.kind === 'http' ? new URL(target.url).href : '';
}
