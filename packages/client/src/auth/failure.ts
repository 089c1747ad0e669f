/**
 * oauth4webapi's errors as AuthorizationError. Theirs carry the response body in `cause`, which
 * can hold tokens, so only what the authorization server said went wrong is kept.
 */
import * as oauth from 'oauth4webapi';
import { AuthorizationError, type AuthorizationFailure, isMcpError } from '../core/errors.ts';

/** What went wrong talking to the authorization server, safe to log. */
export function oauthFailure(
  error: unknown,
  doing: string,
  url: string,
  reason: AuthorizationFailure = 'refused',
): Error {
  // Our own errors (a broken connection, an abort, a deadline) are already what to throw.
  if (isMcpError(error)) return error;
  if (
    error instanceof oauth.ResponseBodyError ||
    error instanceof oauth.AuthorizationResponseError
  ) {
    const description = error.error_description ? `: ${error.error_description}` : '';
    return new AuthorizationError(reason, `${doing} failed with ${error.error}${description}`, {
      url,
      oauthError: error.error,
      status: error instanceof oauth.ResponseBodyError ? error.status : undefined,
    });
  }
  if (
    error instanceof oauth.OperationProcessingError ||
    error instanceof oauth.UnsupportedOperationError
  ) {
    return new AuthorizationError(reason, `${doing} failed: ${error.message}`, { url });
  }
  if (error instanceof TypeError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new AuthorizationError(reason, `${doing} failed: ${message}`, { url });
}

/** The OAuth error code of a failure, if the authorization server sent one. */
export function oauthErrorOf(error: unknown): string | undefined {
  if (error instanceof oauth.ResponseBodyError) return error.error;
  if (error instanceof AuthorizationError) return error.oauthError;
  return undefined;
}
