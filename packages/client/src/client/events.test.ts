import { describe, expect, it, vi } from 'vitest';
import { notification } from '../core/jsonrpc.ts';
import { EventHub } from './events.ts';

describe('EventHub.notify', () => {
  it('reports every notification as a notification event, with its params', () => {
    const hub = new EventHub();
    const listener = vi.fn();
    hub.on('notification', listener);
    hub.notify(notification('notifications/custom', { a: 1 }));
    hub.notify(notification('notifications/tools/list_changed'));
    expect(listener.mock.calls).toEqual([
      ['notifications/custom', { a: 1 }],
      ['notifications/tools/list_changed', undefined],
    ]);
  });

  it('turns notifications/message into a log event carrying the params', () => {
    const hub = new EventHub();
    const log = vi.fn();
    hub.on('log', log);
    const params = { level: 'info', logger: 'db', data: 'connected' };
    hub.notify(notification('notifications/message', params));
    expect(log).toHaveBeenCalledExactlyOnceWith(params);
  });

  it.each([
    ['notifications/tools/list_changed', 'toolsChanged'],
    ['notifications/resources/list_changed', 'resourcesChanged'],
    ['notifications/prompts/list_changed', 'promptsChanged'],
  ] as const)('turns %s into a %s event and no other typed event', (method, event) => {
    const hub = new EventHub();
    const calls: string[] = [];
    for (const name of ['toolsChanged', 'resourcesChanged', 'promptsChanged'] as const) {
      hub.on(name, () => calls.push(name));
    }
    hub.on('log', () => calls.push('log'));
    hub.on('resourceUpdated', () => calls.push('resourceUpdated'));
    hub.notify(notification(method));
    expect(calls).toEqual([event]);
  });

  it('turns notifications/resources/updated into a resourceUpdated event with the uri', () => {
    const hub = new EventHub();
    const updated = vi.fn();
    hub.on('resourceUpdated', updated);
    hub.notify(notification('notifications/resources/updated', { uri: 'file:///a.txt' }));
    hub.notify(notification('notifications/resources/updated', { uri: 42 }));
    expect(updated.mock.calls).toEqual([['file:///a.txt']]);
  });
});

describe('EventHub.on', () => {
  it('returns a function that unsubscribes the listener', () => {
    const hub = new EventHub();
    const listener = vi.fn();
    const off = hub.on('toolsChanged', listener);
    hub.emit('toolsChanged');
    off();
    hub.emit('toolsChanged');
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('reports a throwing listener as a warning and still calls the other listeners', () => {
    const hub = new EventHub();
    const boom = new Error('listener bug');
    const after = vi.fn();
    const warning = vi.fn();
    hub.on('warning', warning);
    hub.on('toolsChanged', () => {
      throw boom;
    });
    hub.on('toolsChanged', after);
    expect(() => hub.notify(notification('notifications/tools/list_changed'))).not.toThrow();
    expect(after).toHaveBeenCalledTimes(1);
    expect(warning).toHaveBeenCalledExactlyOnceWith(boom);
  });

  it('wraps a thrown non-Error in an Error for the warning', () => {
    const hub = new EventHub();
    const warning = vi.fn();
    hub.on('warning', warning);
    hub.on('promptsChanged', () => {
      throw 'oops';
    });
    hub.emit('promptsChanged');
    expect(warning).toHaveBeenCalledExactlyOnceWith(expect.any(Error));
    expect(warning).toHaveBeenCalledWith(expect.objectContaining({ message: 'oops' }));
  });

  it('swallows an error thrown by a warning listener', () => {
    const hub = new EventHub();
    hub.on('warning', () => {
      throw new Error('warning listener bug');
    });
    hub.on('toolsChanged', () => {
      throw new Error('listener bug');
    });
    expect(() => hub.emit('toolsChanged')).not.toThrow();
  });
});
