/**
 * Which of the client's cached results a server's change notice makes stale, and the keys they
 * are cached under. A notice drops what it names before any listener hears of it, so a listener
 * that reads again gets the server's new answer.
 */
import type { ResultCache } from '../call/cache.ts';
import type { ClientEvent } from './events.ts';

/** The cache key of a read resource. */
export function readKey(uri: string): string {
  return `resources/read ${uri}`;
}

export function dropStale(cache: ResultCache, event: ClientEvent): void {
  switch (event[0]) {
    case 'toolsChanged':
      cache.drop('tools/list');
      return;
    case 'promptsChanged':
      cache.drop('prompts/list');
      return;
    case 'resourcesChanged':
      // The resource listings and every read: their keys share the prefix.
      cache.drop('resources/');
      return;
    case 'resourceUpdated':
      cache.drop(readKey(event[1]));
      return;
  }
}
