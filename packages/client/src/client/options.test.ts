import { describe, expect, it } from 'vitest';
import { type ClientOptions, DEFAULTS, resolveOptions } from './options.ts';

const ENDPOINT = 'http://localhost:3000/mcp';

describe('resolveOptions', () => {
  it('fills every option with the default the README documents', () => {
    // Literal values, not DEFAULTS: a default that changes must change here and in the README.
    expect(resolveOptions(ENDPOINT)).toEqual({
      url: ENDPOINT,
      clientInfo: { name: 'toolwire', version: expect.stringMatching(/^\d+\.\d+\.\d+/) },
      protocolVersion: 'auto',
      dialect: 'auto',
      webtools: {},
      verdicts: undefined,
      ownVerdicts: expect.objectContaining({
        get: expect.any(Function),
        set: expect.any(Function),
      }),
      headers: {},
      dispatcher: undefined,
      timeoutMs: 60_000,
      maxTimeoutMs: 600_000,
      resetTimeoutOnProgress: true,
      connectTimeoutMs: 10_000,
      maxResponseBytes: 16 * 1024 * 1024,
      maxEventSize: 4 * 1024 * 1024,
      retry: {
        retries: 3,
        minDelayMs: 200,
        maxDelayMs: 5_000,
        maxRetryAfterMs: 30_000,
        maxResumes: 1_000,
      },
      listen: true,
      reconnectAttempts: 5,
      maxPages: 1_000,
      maxListBytes: 64 * 1024 * 1024,
      handlers: {
        onElicitation: undefined,
        elicitationModes: ['form', 'url'],
        onSampling: undefined,
        samplingTools: false,
        roots: undefined,
      },
      maxInputRounds: 10,
      autoRedeem: true,
      // A store of its own per client: handles never leak between clients.
      handles: expect.objectContaining({
        save: expect.any(Function),
        delete: expect.any(Function),
      }),
      tracing: true,
      extensions: {},
      skills: false,
    });
    expect(resolveOptions(ENDPOINT).handles).not.toBe(resolveOptions(ENDPOINT).handles);
  });

  it('declares the skills extension with skills, and refuses a skills that is no boolean', () => {
    expect(resolveOptions(ENDPOINT, { skills: true }).extensions).toEqual({
      'io.modelcontextprotocol/skills': {},
    });
    expect(() => resolveOptions(ENDPOINT, { skills: 1 as unknown as boolean })).toThrow(TypeError);
  });

  it('declares the extensions given, and MCP Apps with apps', () => {
    const extensions = { 'com.example/audit': { level: 2 } };
    expect(resolveOptions(ENDPOINT, { extensions }).extensions).toEqual(extensions);
    expect(resolveOptions(ENDPOINT, { extensions, apps: true }).extensions).toEqual({
      ...extensions,
      'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] },
    });
    expect(resolveOptions(ENDPOINT, { apps: { mimeTypes: ['text/uri-list'] } }).extensions).toEqual(
      { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/uri-list'] } },
    );
  });

  it.each([
    [
      { extensions: { audit: {} } },
      /extension identifier such as "com.example\/name", got "audit"/,
    ],
    [
      { extensions: { 'com.example/audit': true } },
      /settings of the extension "com.example\/audit"/,
    ],
    [{ apps: { mimeTypes: 'text/html' } }, /`apps` to be a boolean or \{ mimeTypes: string\[\] \}/],
  ])('refuses misshapen extensions: %j', (options, message) => {
    expect(() => resolveOptions(ENDPOINT, options as ClientOptions)).toThrow(message);
  });

  it('refuses a handle store without save() and delete()', () => {
    expect(() => resolveOptions(ENDPOINT, { handles: { save() {} } as never })).toThrow(
      /expected `handles` to be a store with save\(\) and delete\(\)/,
    );
  });

  it('hands out copies, so a caller can change them without touching DEFAULTS', () => {
    const resolved = resolveOptions(ENDPOINT);
    resolved.retry.retries = 9;
    resolved.clientInfo.name = 'mine';
    expect(DEFAULTS.retry.retries).toBe(3);
    expect(DEFAULTS.clientInfo.name).toBe('toolwire');
  });

  it('accepts a URL object and normalises it', () => {
    expect(resolveOptions(new URL('https://example.com')).url).toBe('https://example.com/');
  });

  it('merges a partial retry policy over the default one', () => {
    expect(resolveOptions(ENDPOINT, { retry: { retries: 0, maxRetryAfterMs: 5 } }).retry).toEqual({
      retries: 0,
      minDelayMs: 200,
      maxDelayMs: 5_000,
      maxRetryAfterMs: 5,
      maxResumes: 1_000,
    });
  });

  it('keeps the options it is given', () => {
    const resolved = resolveOptions(ENDPOINT, {
      timeoutMs: 5,
      protocolVersion: '2025-03-26',
      headers: { authorization: 'Bearer t' },
      listen: false,
    });
    expect(resolved).toMatchObject({
      timeoutMs: 5,
      protocolVersion: '2025-03-26',
      headers: { authorization: 'Bearer t' },
      listen: false,
    });
  });

  it.each<[string, ClientOptions]>([
    ['timeoutMs', { timeoutMs: -1 }],
    ['timeoutMs', { timeoutMs: Number.NaN }],
    ['maxTimeoutMs', { maxTimeoutMs: 0 }],
    ['connectTimeoutMs', { connectTimeoutMs: Number.POSITIVE_INFINITY }],
    ['maxResponseBytes', { maxResponseBytes: -5 }],
    ['maxEventSize', { maxEventSize: Number.NaN }],
    ['maxListBytes', { maxListBytes: 0 }],
    ['maxListBytes', { maxListBytes: '1MB' as never }],
    ['retry.retries', { retry: { retries: -1 } }],
    ['retry.minDelayMs', { retry: { minDelayMs: Number.NaN } }],
    ['reconnectAttempts', { reconnectAttempts: -1 }],
    ['protocolVersion', { protocolVersion: '2099-01-01' as never }],
    ['maxInputRounds', { maxInputRounds: -1 }],
    ['onElicitation', { onElicitation: 'yes' as never }],
    ['onSampling', { onSampling: {} as never }],
    ['elicitationModes', { elicitationModes: ['form', 'voice'] as never }],
    ['roots', { roots: 'file:///' as never }],
    ['tracing', { tracing: 'yes' as never }],
    ['tracing', { tracing: { tracerProvider: {} } as never }],
  ])('rejects a bad %s with a TypeError naming it', (name, options) => {
    expect(() => resolveOptions(ENDPOINT, options)).toThrow(TypeError);
    expect(() => resolveOptions(ENDPOINT, options)).toThrow(`\`${name}\``);
  });

  it.each<[string, ClientOptions]>([
    ['retry.retries', { retry: { retries: 1.5 } }],
    ['reconnectAttempts', { reconnectAttempts: 2.5 }],
    ['maxInputRounds', { maxInputRounds: 1.5 }],
  ])('rejects a fractional %s, which the retry loop cannot use', (name, options) => {
    expect(() => resolveOptions(ENDPOINT, options)).toThrow(TypeError);
    expect(() => resolveOptions(ENDPOINT, options)).toThrow(`\`${name}\``);
  });

  it('rejects a URL that is not http, https, grpc or grpcs', () => {
    expect(() => resolveOptions('ftp://example.com/mcp')).toThrow(TypeError);
    expect(() => resolveOptions('ftp://example.com/mcp')).toThrow(/http:, https:, grpc: or grpcs:/);
  });

  it('takes grpc and grpcs URLs, for MCP-lite only', () => {
    expect(resolveOptions('grpc://127.0.0.1:50051').url).toBe('grpc://127.0.0.1:50051');
    expect(resolveOptions('grpcs://example.com', { dialect: 'mcp-lite' }).url).toBe(
      'grpcs://example.com',
    );
    expect(() => resolveOptions('grpc:///no-host')).toThrow(/with a host/);
    expect(() => resolveOptions('grpc://127.0.0.1:1', { dialect: 'webtools' })).toThrow(
      /a grpc URL speaks mcp-lite, not `dialect: 'webtools'`/,
    );
    expect(() => resolveOptions('grpc://127.0.0.1:1', { protocolVersion: 'modern' })).toThrow(
      TypeError,
    );
    expect(() =>
      resolveOptions('grpc://127.0.0.1:1', { auth: { client: { clientId: 'app' } } }),
    ).toThrow(/not OAuth options/);
    expect(resolveOptions('grpc://127.0.0.1:1', { auth: 't0ken' }).auth).toBe('t0ken');
  });

  it('rejects a string that is not an absolute URL', () => {
    expect(() => resolveOptions('/mcp')).toThrow(TypeError);
    expect(() => resolveOptions('/mcp')).toThrow(/absolute http\(s\) or grpc\(s\) URL/);
  });
});

describe('unknown keys', () => {
  it.each([
    [{ bogus: 1 }, /^unknown option `bogus`; the options here are `clientInfo`/],
    [{ limits: { concurrency: 4 } }, /^unknown option `limits`/],
    [{ cache: { results: 1 } }, /^unknown option `cache`/],
    [{ timeoutMS: 5 }, /^unknown option `timeoutMS`; did you mean `timeoutMs`\?$/],
    [{ retry: { retires: 1 } }, /^unknown option `retry.retires`; did you mean `retry.retries`\?$/],
    [{ webtools: { sesionId: 'a' } }, /`webtools.sesionId`; did you mean `webtools.sessionId`/],
    [
      { tracing: { tracerprovider: {} } },
      /`tracing.tracerprovider`; did you mean `tracing.tracerProvider`/,
    ],
    [{ apps: { mimeType: [] } }, /`apps.mimeType`; did you mean `apps.mimeTypes`/],
    [
      { auth: { clientMetadataURL: 'x' } },
      /`auth.clientMetadataURL`; did you mean `auth.clientMetadataUrl`/,
    ],
    [
      { auth: { client: { clientID: 'a' } } },
      /`auth.client.clientID`; did you mean `auth.client.clientId`/,
    ],
    [
      { auth: { client: { clientId: 'a' }, grant: { type: 'client_credentials', scope: 'x' } } },
      /`auth.grant.scope`/,
    ],
  ])('are a TypeError naming them: %j', (options, message) => {
    expect(() => resolveOptions(ENDPOINT, options as ClientOptions)).toThrow(
      expect.objectContaining({ name: 'TypeError', message: expect.stringMatching(message) }),
    );
  });

  it("are the user's own where the keys are data", () => {
    expect(() =>
      resolveOptions(ENDPOINT, {
        headers: { 'X-Anything': 'a' },
        clientInfo: { name: 'a', version: '1', websiteUrl: 'https://example.com' } as never,
        extensions: { 'com.example/audit': { anything: 1 } },
        auth: { headers: () => ({}), ownState: 1 } as never,
        webtools: { config: { anyKey: 1 } },
      }),
    ).not.toThrow();
    expect(() =>
      resolveOptions({ command: 'node', env: { ANY_NAME: 'x' } }, { listen: false }),
    ).not.toThrow();
    expect(() => resolveOptions({ command: 'node', argv: ['x'] } as never)).toThrow(
      /unknown option `argv`; did you mean `args`\?/,
    );
  });
});
