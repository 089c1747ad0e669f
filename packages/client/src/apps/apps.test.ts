import { describe, expect, it } from 'vitest';
import { MalformedMessageError } from '../core/errors.ts';
import type { Tool } from '../core/types.ts';
import { readAppResource, visibleToApp, visibleToModel, withUi } from './apps.ts';

const tool = (_meta?: Tool['_meta']): Tool => ({
  name: 't',
  inputSchema: { type: 'object' },
  ...(_meta ? { _meta } : {}),
});

describe('tool.ui from _meta.ui', () => {
  it('reads the view and the visibility; the extension default is both', () => {
    const [view, plain] = withUi([tool({ ui: { resourceUri: 'ui://a/b' } }), tool()]);
    expect(view?.ui).toEqual({ resourceUri: 'ui://a/b', visibility: ['model', 'app'] });
    expect(plain?.ui).toBeUndefined();
    expect(visibleToModel(view!)).toBe(true);
    expect(visibleToModel(plain!)).toBe(true);
  });

  it('keeps a tool whose visibility lacks "model" away from models', () => {
    const [appOnly] = withUi([tool({ ui: { resourceUri: 'ui://a/b', visibility: ['app'] } })]);
    expect(visibleToModel(appOnly!)).toBe(false);
    expect(visibleToApp(appOnly!)).toBe(true);
    // A lone string means what it says; unknown values and an empty list give no one access.
    const [single, odd, none] = withUi([
      tool({ ui: { visibility: 'app' } }),
      tool({ ui: { visibility: ['agent', 'app'] } }),
      tool({ ui: { visibility: [] } }),
    ]);
    expect(single?.ui?.visibility).toEqual(['app']);
    expect(odd?.ui?.visibility).toEqual(['app']);
    expect(visibleToModel(none!) || visibleToApp(none!)).toBe(false);
  });

  it('reads the deprecated flat key, and drops a view outside ui://', () => {
    const [flat, outside] = withUi([
      tool({ 'ui/resourceUri': 'ui://old/view' }),
      tool({ ui: { resourceUri: 'https://example.com/view.html' } }),
    ]);
    expect(flat?.ui).toEqual({ resourceUri: 'ui://old/view', visibility: ['model', 'app'] });
    expect(outside?.ui).toEqual({ visibility: ['model', 'app'] });
  });

  it('hands back the same array when no tool has any', () => {
    const tools = [tool(), tool({ other: 1 })];
    expect(withUi(tools)).toBe(tools);
  });
});

describe('readAppResource', () => {
  const reader = (contents: unknown[]) => ({
    readResource: async () => ({ contents }) as never,
  });

  it('decodes a view sent as a blob', async () => {
    const html = '<!DOCTYPE html><p>hi</p>';
    const app = await readAppResource(
      reader([
        {
          uri: 'ui://a/v',
          mimeType: 'text/html; profile=mcp-app',
          blob: Buffer.from(html).toString('base64'),
        },
      ]),
      'ui://a/v',
    );
    expect(app).toEqual({
      uri: 'ui://a/v',
      mimeType: 'text/html;profile=mcp-app',
      html,
      meta: undefined,
    });
  });

  it('refuses what is not a view with a MalformedMessageError: another MIME type, no contents', async () => {
    await expect(
      readAppResource(
        reader([{ uri: 'ui://a/v', mimeType: 'text/html', text: '<p>' }]),
        'ui://a/v',
      ),
    ).rejects.toThrow(MalformedMessageError);
    await expect(readAppResource(reader([]), 'ui://a/v')).rejects.toThrow(
      /no contents for ui:\/\/a\/v/,
    );
  });
});
