/**
 * The interactive authorization for CLIs and desktop apps: a listener on a loopback address
 * receives the authorization server's redirect (RFC 8252 §7.3). It is bound before the browser
 * opens, so a fast redirect cannot miss it, and closed once the redirect is in or the wait is
 * aborted.
 */
import type { Server } from 'node:http';
import { usageError } from '../core/call-boundary.ts';
import type { AuthorizeCallback } from './types.ts';

export interface LoopbackOptions {
  /**
   * Shows the authorization URL to the user: opens their browser, or prints the URL. Called once
   * the listener is bound.
   */
  open: (url: URL) => void | Promise<void>;
  /** The loopback address to listen on. @default '127.0.0.1' */
  host?: string;
  /** The port; 0 picks a free one the first time and keeps it. @default 0 */
  port?: number;
  /** The redirect path. @default '/callback' */
  path?: string;
  /** The page the browser shows once the redirect is in. */
  page?: string;
}

/** The `redirectUri` and `authorize` of the `auth` option, and `close` for a wait in progress. */
export interface LoopbackAuthorization {
  redirectUri(): Promise<string>;
  /** An {@link AuthorizeCallback}: binds, shows the URL, resolves with the redirect received. */
  authorize(url: URL, context: { signal: AbortSignal }): Promise<URL>;
  close(): Promise<void>;
}

const PAGE =
  '<!doctype html><meta charset="utf-8"><title>Authorized</title><p>You can close this window and go back to the application.';

/**
 * `auth: { ...loopbackAuthorization({ open }) }`: the redirect URI is
 * `http://127.0.0.1:<port>/callback`, and each authorization waits there for the redirect that
 * carries its `state`.
 */
export function loopbackAuthorization(options: LoopbackOptions): LoopbackAuthorization {
  if (typeof options?.open !== 'function') {
    throw usageError('expected `open` to be a function that shows the user a URL');
  }
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/callback';
  let port = options.port ?? 0;
  const listening = new Set<Server>();

  const uri = () => `http://${host.includes(':') ? `[${host}]` : host}:${port}${path}`;

  async function listen(): Promise<Server> {
    const { createServer } = await import('node:http');
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const address = server.address();
    if (typeof address === 'object' && address) port = address.port;
    listening.add(server);
    return server;
  }

  async function stop(server: Server): Promise<void> {
    listening.delete(server);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  return {
    async redirectUri() {
      // A free port is found once and kept: the redirect URI must not change between the
      // registration and the authorizations that follow it.
      if (port === 0) await stop(await listen());
      return uri();
    },

    async authorize(url, { signal }) {
      signal.throwIfAborted();
      const expected = url.searchParams.get('state');
      const server = await listen();
      try {
        const redirect = new Promise<URL>((resolve, reject) => {
          const onAbort = () => reject(signal.reason);
          signal.addEventListener('abort', onAbort, { once: true });
          server.on('request', (request, response) => {
            const received = new URL(request.url ?? '/', uri());
            // Only the redirect of this authorization: a stray request cannot end the wait.
            if (received.pathname !== path || received.searchParams.get('state') !== expected) {
              response.writeHead(404).end();
              return;
            }
            signal.removeEventListener('abort', onAbort);
            response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
            response.end(options.page ?? PAGE, () => resolve(received));
          });
        });
        await options.open(url);
        return await redirect;
      } finally {
        await stop(server);
      }
    },

    async close() {
      await Promise.all([...listening].map(stop));
    },
  };
}
