/**
 * The table of errors (docs/errors.md) against what the client exports: every error class a user can
 * catch is in the table, the table names no class that is not exported, and each row's `code`
 * and `family` are the ones an instance of the class carries.
 */
import { readFile } from 'node:fs/promises';
import * as client from '@toolwire/client';
import { expect, test } from 'vitest';

const ERRORS = new URL('../../docs/errors.md', import.meta.url);

interface Row {
  code: string;
  family: string;
}

/** `| \`Class\` | \`CODE\` | \`family\` | when |` rows of docs/errors.md. */
async function documented(): Promise<Map<string, Row>> {
  const text = await readFile(ERRORS, 'utf8');
  const rows = new Map<string, Row>();
  for (const [, name, code, family] of text.matchAll(/^\| `(\w+)` +\| `(\w+)` +\| `(\w+)` +\|/gm)) {
    rows.set(name!, { code: code!, family: family! });
  }
  return rows;
}

/** Every exported class that is an McpError (McpError itself is the base, not a row). */
function exported(): string[] {
  return Object.entries(client)
    .filter(
      ([, value]) =>
        typeof value === 'function' &&
        value !== client.McpError &&
        value.prototype instanceof client.McpError,
    )
    .map(([name]) => name);
}

const handle = { kind: 'task', id: 'task-1234567890' } as const;

/** One instance of each exported error class, built the way the client builds it. */
const EXAMPLES: Record<string, () => client.McpError> = {
  TransportError: () => new client.TransportError('connection refused'),
  ServerExitedError: () => new client.ServerExitedError({ code: 1, signal: null, stderr: [] }),
  HttpStatusError: () => new client.HttpStatusError(502, {}),
  GrpcStatusError: () => new client.GrpcStatusError(14, 'down'),
  StreamTruncatedError: () => new client.StreamTruncatedError(),
  TimeoutError: () => new client.TimeoutError(1_000),
  ContentTypeError: () => new client.ContentTypeError('text/html'),
  ResponseTooLargeError: () => new client.ResponseTooLargeError('body', 10),
  MalformedMessageError: () => new client.MalformedMessageError('not JSON'),
  UnsupportedVersionError: () => new client.UnsupportedVersionError('1999-01-01', ['2025-11-25']),
  UnsupportedServerError: () => new client.UnsupportedServerError(['POST: 404']),
  TooManyPagesError: () => new client.TooManyPagesError(3),
  InputRoundsExceededError: () => new client.InputRoundsExceededError(10),
  MetadataChangedError: () => new client.MetadataChangedError('a', 'b', {}),
  SkillVerificationError: () =>
    new client.SkillVerificationError('digest', 'mismatch', { skill: 'skill://a/b/SKILL.md' }),
  JsonRpcError: () => new client.JsonRpcError(-32603, 'boom'),
  HeaderMismatchError: () => new client.HeaderMismatchError('mismatch'),
  MissingCapabilityError: () => client.MissingCapabilityError.ofServer('prompts'),
  ResourceNotFoundError: () => new client.ResourceNotFoundError(-32002, 'no such resource'),
  ToolNotFoundError: () => new client.ToolNotFoundError(['add']),
  SessionExpiredError: () => new client.SessionExpiredError(),
  UrlElicitationRequiredError: () => new client.UrlElicitationRequiredError('open the link'),
  WebtoolError: () => new client.WebtoolError('RATE_LIMIT', 'slow down'),
  NotSupportedError: () => new client.NotSupportedError('webtools'),
  HandleExpiredError: () => new client.HandleExpiredError(handle),
  OutputValidationError: () => new client.OutputValidationError({}, ['sum: missing']),
  MoreResourceRequiredError: () => new client.MoreResourceRequiredError({}),
  TaskFailedError: () => new client.TaskFailedError(handle, { code: -32603, message: 'x' }),
  TaskCancelledError: () => new client.TaskCancelledError(handle),
  AuthorizationError: () => new client.AuthorizationError('rejected', 'refused'),
  InputRequiredError: () => new client.InputRequiredError(['sampling/createMessage']),
  HandlerError: () => new client.HandlerError('elicitation/create', 'threw'),
  AbortedError: () => new client.AbortedError(),
  ClientClosedError: () => new client.ClientClosedError(),
  StoreUnavailableError: () => new client.StoreUnavailableError('verdicts.get', 'timed out'),
  DiscoveryError: () => new client.DiscoveryError('card', 'not JSON'),
  MissingInputError: () => new client.MissingInputError('header:Authorization', 'required'),
  RunnerMissingError: () => new client.RunnerMissingError('uvx', 'install uv'),
  InternalError: () => new client.InternalError(new Error('bug')),
};

test('the README documents every exported error class, and only those', async () => {
  const rows = await documented();
  const classes = exported();
  expect(classes.length).toBeGreaterThan(20);
  expect([...rows.keys()].sort()).toEqual(classes.sort());
});

test("each row's code and family are the class's own", async () => {
  const rows = await documented();
  // A class without an example here fails: its code and family must be checked too.
  expect(Object.keys(EXAMPLES).sort()).toEqual(exported().sort());
  for (const [name, build] of Object.entries(EXAMPLES)) {
    const error = build();
    expect(error).toBeInstanceOf((client as unknown as Record<string, typeof Error>)[name]!);
    expect({ name, code: error.code, family: error.family }).toEqual({ name, ...rows.get(name) });
  }
});

test('the families are the six the README names, each with at least one class', async () => {
  const families = new Set([...(await documented()).values()].map((row) => row.family));
  expect([...families].sort()).toEqual(
    ['auth', 'local', 'protocol', 'refused', 'tool', 'transport'].sort(),
  );
});
