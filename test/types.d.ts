// oidc-provider ships no types; the tests use a small part of it, typed where it is used.
declare module 'oidc-provider' {
  // biome-ignore lint/suspicious/noExplicitAny: untyped dev dependency
  const Provider: any;
  // biome-ignore lint/suspicious/noExplicitAny: untyped dev dependency
  type Provider = any;
  export default Provider;
}
