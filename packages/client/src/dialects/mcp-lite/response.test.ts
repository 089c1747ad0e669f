import { describe, expect, it } from 'vitest';
import { MalformedMessageError, MoreResourceRequiredError } from '../../core/errors.ts';
import { answered } from './elicitation.ts';
import { hintedBase } from './http/endpoints.ts';
import { toolsOf } from './listing.ts';
import { outcomeOf } from './response.ts';

const where = { url: 'http://x/mcp-lite/v1/calltools', method: 'tools/call', tool: 't' };

describe('outcomeOf: _meta.response_type onto the Outcome', () => {
  it('reads a result without _meta as an answer', () => {
    const outcome = outcomeOf({ content: [{ type: 'text', text: 'hi' }] }, where);
    expect(outcome).toEqual({
      kind: 'complete',
      result: { content: [{ type: 'text', text: 'hi' }], isError: false },
    });
  });

  it('turns untyped content items into text blocks and structuredContent, keeping _meta', () => {
    const meta = {
      response_type: 'answer',
      timestamp: '2024-01-01T12:00:00Z',
      processing_time_ms: 145,
      server_version: '1.2',
    };
    const doc = { document_id: 'doc_123', title: 'MCP' };
    const outcome = outcomeOf({ content: [doc, 'plain'], _meta: meta }, where);
    expect(outcome).toEqual({
      kind: 'complete',
      result: {
        content: [
          { type: 'text', text: JSON.stringify(doc) },
          { type: 'text', text: 'plain' },
        ],
        structuredContent: [doc],
        isError: false,
        _meta: meta,
      },
    });
  });

  it('reads a result with no content as one structured item', () => {
    const outcome = outcomeOf({ rows: 3, _meta: { response_type: 'answer' } }, where);
    expect(outcome).toMatchObject({
      kind: 'complete',
      result: { content: [{ type: 'text', text: '{"rows":3}' }], structuredContent: [{ rows: 3 }] },
    });
  });

  it('makes a failure a tool failure, not a protocol error', () => {
    const outcome = outcomeOf(
      { content: ['no funds'], _meta: { response_type: 'failure' } },
      where,
    );
    expect(outcome).toMatchObject({ kind: 'complete', result: { isError: true } });
  });

  it('makes a promise pending, due at its estimated completion', () => {
    const now = Date.parse('2024-01-01T12:00:00Z');
    const outcome = outcomeOf(
      {
        _meta: {
          response_type: 'promise',
          promise_token: 'prom_a7b9',
          estimated_completion: '2024-01-01T12:05:00Z',
        },
      },
      where,
      now,
    );
    expect(outcome).toEqual({
      kind: 'pending',
      handle: { kind: 'promise', id: 'prom_a7b9' },
      retryAfterMs: 300_000,
    });
  });

  it('refuses a promise without a token', () => {
    const outcome = outcomeOf({ _meta: { response_type: 'promise' } }, where);
    expect(outcome.kind === 'failure' && outcome.error).toBeInstanceOf(MalformedMessageError);
  });

  it('makes an elicitation an MCP form elicitation/create request', () => {
    const requestedSchema = { type: 'object', properties: { size: { type: 'integer' } } };
    const outcome = outcomeOf(
      {
        content: [{ type: 'text', text: 'How many?' }],
        elicitation: { message: 'How many people?', requestedSchema },
        _meta: { response_type: 'elicitation' },
      },
      where,
    );
    expect(outcome).toEqual({
      kind: 'input',
      questions: {
        elicitation: {
          method: 'elicitation/create',
          params: { mode: 'form', message: 'How many people?', requestedSchema },
        },
      },
    });
  });

  it('asks with the content text and an open form when the server gives no schema', () => {
    const outcome = outcomeOf(
      { content: ['Which city?'], _meta: { response_type: 'elicitation' } },
      where,
    );
    expect(outcome).toMatchObject({
      kind: 'input',
      questions: {
        elicitation: {
          params: { message: 'Which city?', requestedSchema: { type: 'object', properties: {} } },
        },
      },
    });
  });

  it('makes request-for-more-resource a typed error carrying the answer', () => {
    const outcome = outcomeOf(
      { content: ['more GPU'], _meta: { response_type: 'request-for-more-resource', needed: 30 } },
      where,
    );
    expect(outcome.kind).toBe('failure');
    const error = outcome.kind === 'failure' ? outcome.error : undefined;
    expect(error).toBeInstanceOf(MoreResourceRequiredError);
    expect((error as MoreResourceRequiredError).result).toMatchObject({
      content: [{ type: 'text', text: 'more GPU' }],
      _meta: { needed: 30 },
    });
  });

  it('refuses a response_type MCP-lite does not define', () => {
    const outcome = outcomeOf({ _meta: { response_type: 'maybe' } }, where);
    expect(outcome.kind === 'failure' && outcome.error.message).toMatch(/"maybe"/);
  });
});

describe('answered: an answer goes back as the same call with more arguments', () => {
  it('merges accepted content into the arguments and drops the answer fields', () => {
    expect(
      answered({
        name: 'book_table',
        arguments: { restaurant: 'R' },
        inputResponses: { elicitation: { action: 'accept', content: { party_size: 4 } } },
        requestState: 'ignored',
      }),
    ).toEqual({
      kind: 'call',
      params: { name: 'book_table', arguments: { restaurant: 'R', party_size: 4 } },
    });
  });

  it('ends a declined call as a tool failure without asking the server again', () => {
    const answer = answered({
      name: 'book_table',
      inputResponses: { elicitation: { action: 'decline' } },
    });
    expect(answer).toMatchObject({ kind: 'declined', result: { isError: true } });
  });

  it('leaves a first call alone', () => {
    expect(answered({ name: 'x', arguments: {} })).toBeUndefined();
  });
});

describe('listing and endpoints', () => {
  it('reads a bare array and { tools }, keeping @type as category', () => {
    const tool = { name: 'redeem', '@type': 'system', inputSchema: { type: 'object' } };
    expect(toolsOf([tool])?.tools[0]).toMatchObject({ name: 'redeem', category: 'system' });
    expect(toolsOf({ tools: [tool] })?.tools[0]).toMatchObject({ '@type': 'system' });
    expect(toolsOf({ result: [] })).toBeUndefined();
  });

  it('drops items without a name, and gives a missing inputSchema an open one', () => {
    const listed = toolsOf([{ description: 'nameless' }, { name: 'a' }]);
    expect(listed?.dropped).toHaveLength(1);
    expect(listed?.tools).toEqual([{ name: 'a', inputSchema: { type: 'object' } }]);
  });

  it('finds the base of a URL that names an endpoint', () => {
    expect(hintedBase('http://h/mcp-lite/v1/calltools')).toBe('http://h/mcp-lite/v1');
    expect(hintedBase('http://h/v1/tools/?k=1')).toBe('http://h/v1?k=1');
    expect(hintedBase('http://h/mcp')).toBeUndefined();
  });
});
