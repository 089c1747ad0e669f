import { ServerExitedError, TimeoutError, TransportError } from '@toolwire/client';
import { expect, it } from 'vitest';
import { EXIT } from './exit-codes.ts';
import { exitCodeFor } from './failure.ts';

it('gives a local server that exited mid-call the status of a server out of reach', () => {
  const exited = new ServerExitedError({ code: 70, signal: null, stderr: [] });
  expect(exitCodeFor(exited)).toBe(EXIT.connection);
  expect(exitCodeFor(new TransportError('reset'))).toBe(EXIT.connection);
  // Past connecting, a failure the server is not out of reach for is the server's.
  expect(exitCodeFor(new TimeoutError(100))).toBe(EXIT.server);
});
