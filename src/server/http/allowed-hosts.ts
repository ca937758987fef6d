/**
 * The names this server answers to, checked before any other work, as Django's ALLOWED_HOSTS does:
 * the host of `PUBLIC_ORIGIN`, and this machine's own loopback names on the server's port (a proxy
 * on the same machine, a probe, a trial without PUBLIC_ORIGIN), and the content editor's own host
 * in GitHub mode (CONTENT_EDITOR_ORIGIN). Anything else in `Host` is a name the client made up;
 * nothing the server keeps may be keyed by it, and it is answered 421 (Misdirected Request).
 */
interface AllowedHosts {
  /** Whether a request naming `host` (its `Host` header) is for this server. */
  readonly allows: (host: string | undefined) => boolean;
  /** The names, for the refusal's words. */
  readonly names: readonly string[];
}

export function allowedHosts({
  publicOrigin,
  contentEditorOrigin,
  port,
}: {
  publicOrigin: string | undefined;
  contentEditorOrigin?: string | undefined;
  port: number;
}): AllowedHosts {
  const names = [
    ...[publicOrigin, contentEditorOrigin].flatMap((origin) =>
      origin ? [new URL(origin).host] : [],
    ),
    `localhost:${port}`,
    `127.0.0.1:${port}`,
    `[::1]:${port}`,
  ];
  const known = new Set(names.map((name) => name.toLowerCase()));
  return {
    allows: (host) => host !== undefined && known.has(host.toLowerCase()),
    names,
  };
}
