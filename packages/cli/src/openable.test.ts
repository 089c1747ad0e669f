import { AuthorizationError } from '@toolwire/client';
import { describe, expect, it } from 'vitest';
import { CliError, EXIT } from './exit-codes.ts';
import { describeError, exitCodeFor } from './failure.ts';
import { checkOpenable, isLoopback, UnsafeUrlError } from './openable.ts';

describe('URLs the CLI opens', () => {
  it('opens https anywhere and http on this machine only', () => {
    for (const url of [
      'https://as.example/authorize?x=1',
      'http://127.0.0.1:8080/authorize',
      'http://127.1/a',
      'http://[::1]:9/a',
      'http://[0:0::1]/a',
      'http://localhost:3000/a',
    ]) {
      expect(() => checkOpenable(new URL(url), 'the sign-in URL')).not.toThrow();
    }
  });

  it('refuses every other scheme, and http across a network, with a typed error', () => {
    for (const url of [
      'http://as.example/authorize',
      'http://10.0.0.1/a',
      'http://localhost.evil.example/a',
      'http://127.0.0.1.evil.example/a',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'vscode://extension/x',
      'ftp://as.example/a',
    ]) {
      const error = (() => {
        try {
          checkOpenable(new URL(url), 'the sign-in URL');
        } catch (caught) {
          return caught;
        }
        return undefined;
      })();
      expect(error, url).toBeInstanceOf(UnsafeUrlError);
      expect((error as UnsafeUrlError).exitCode).toBe(3);
      expect((error as Error).message).toMatch(/^refused to open the sign-in URL /);
    }
    expect(isLoopback('127.0.0.1')).toBe(true);
    expect(isLoopback('128.0.0.1')).toBe(false);
  });

  it("is what the user reads when it comes back inside the client's error", () => {
    const refused = new UnsafeUrlError(new URL('file:///etc/passwd'), 'the sign-in URL');
    const client = new AuthorizationError('callback_failed', 'an auth callback failed', {
      url: 'https://mcp.example/mcp',
      cause: refused,
    });
    const wrapped = new CliError(exitCodeFor(client, true), client.message, { cause: client });
    expect(describeError(wrapped)).toBe(refused.message);
    expect(exitCodeFor(wrapped)).toBe(EXIT.connection);
  });
});
