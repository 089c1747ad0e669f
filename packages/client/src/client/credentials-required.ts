/**
 * A server that refuses to be spoken to without credentials, met while connecting with no `auth`:
 * an AuthorizationError that says so and how to give them, not an HTTP status or "no protocol
 * answered". Said of the whole negotiation, never of one probe: a server that refuses one dialect
 * and serves another is still negotiated.
 */
import { parseChallenges } from '../auth/challenge.ts';
import { AuthorizationError, HttpStatusError, UnsupportedServerError } from '../core/errors.ts';
import { challengeOf } from '../wire/transport/http.ts';

/** Display names of the schemes a challenge may name; another is shown as the server sent it. */
const SCHEMES: Record<string, string> = { bearer: 'Bearer', dpop: 'DPoP', basic: 'Basic' };

/**
 * What a failed negotiation means when the server wants credentials: the AuthorizationError for
 * it, or `error` unchanged. With `auth` given, the refusal is the credentials' (the gate says so).
 */
export function credentialsRequired(
  error: unknown,
  options: { url: string; auth: unknown; headers: Record<string, string> },
): unknown {
  if (options.auth !== undefined) return error;
  const refusal =
    error instanceof UnsupportedServerError ? (error.cause ?? error) : (error as unknown);
  if (!(refusal instanceof HttpStatusError)) return error;
  if (refusal.status !== 401 && refusal.status !== 403) return error;
  const header = challengeOf(refusal);
  const challenge = parseChallenges(header)[0];
  const scheme = challenge && (SCHEMES[challenge.scheme] ?? header!.trim().split(/[\s,]/)[0]);
  // Which params it has, never their values: an error is logged, and a realm may say too much.
  const named = challenge
    ? ['realm', 'resource_metadata', 'scope'].filter((name) => name in challenge.params)
    : [];
  // The server's own first line (as HttpStatusError quotes it): a 403 often names the fix.
  const status = `HTTP ${refusal.status}${refusal.reason ? ` "${refusal.reason}"` : ''}`;
  const said = scheme
    ? `${status}, its challenge names ${scheme}${named.length > 0 ? ` with ${named.join(', ')}` : ''}`
    : `${status}, no challenge`;
  const given = Object.keys(options.headers).some((name) => name.toLowerCase() === 'authorization')
    ? '; it refused the Authorization header given in `headers`'
    : '';
  return new AuthorizationError(
    'credentials_required',
    `the server wants credentials (${said})${given}: give them with the \`auth\` or \`headers\` option, or \`toolwire login ${options.url}\``,
    { url: options.url, status: refusal.status, cause: error, scheme },
  );
}
