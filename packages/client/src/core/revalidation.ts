/**
 * HTTP revalidation of a list's first page: the `ETag` the server gave with it goes back as
 * `If-None-Match` when the list is fetched again, and a 304 says the kept listing still stands.
 * One object per request, filled in by the HTTP channels; other bindings leave it untouched,
 * so a server without ETags (or stdio) behaves as before.
 */
export interface Revalidation {
  /** The ETag of the listing kept, sent as `If-None-Match`; undefined on a first fetch. */
  readonly ifNoneMatch: string | undefined;
  /** The ETag the server sent with its answer, if it sent one. */
  etag?: string | undefined;
  /** The server answered 304: the listing kept is still current, and the body is empty. */
  notModified?: boolean | undefined;
}
