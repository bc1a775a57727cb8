// Private: the `host:port` of a URL, as permission flags and token stores name a host.

/** `host:port` of an HTTP URL (the port made explicit). */
export function hostOf(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || (u.protocol === "https:" ? "443" : "80")}`;
}
